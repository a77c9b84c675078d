import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { mailTransportUrl } from '../../src/service/documents/mailer.js';

/** A message as the sink received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: Buffer;
}

/** What the sink answers: nothing (accepted), or a refusal with its SMTP code. */
export type SmtpRefusal = { code: number; text: string } | undefined | void;

export interface SmtpSink {
  port: number;
  /** The service's `smtpUrl` for this sink, with the operator's sender (and any other transport setting). */
  url(options?: { from?: string; perHour?: string }): string;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (ephemeral port, no TLS, no auth) that hands every message to
 * `onMail`, which may refuse it; `onRecipient` may refuse an address at RCPT TO.
 */
export async function startSmtpSink(onMail: (mail: ReceivedMail) => SmtpRefusal, options: { onRecipient?: (address: string) => SmtpRefusal } = {}): Promise<SmtpSink> {
  const refuse = (refusal: { code: number; text: string }) => Object.assign(new Error(refusal.text), { responseCode: refusal.code });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = options.onRecipient?.(address.address);
      callback(refusal ? refuse(refusal) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const refusal = onMail({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        callback(refusal ? refuse(refusal) : undefined);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: (transport = {}) => mailTransportUrl(`smtp://127.0.0.1:${port}`, { from: 'Invoicing <invoices@operator.example>', ...transport })!,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
