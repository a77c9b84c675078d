import type { ConnectionTest } from '../../api/schemas/seller.js';
import { encryptKsefToken, publicKeyOfCertificate } from '../ksef/crypto.js';
import { isTestEnvironment, ksefHosts, type KsefEnvironment } from '../ksef/gateway.js';
import { outboundFetch } from '../outbound.js';

/**
 * KSeF's "Test connection": one authentication with the account's KSeF token, as KSeF API 2.0
 * documents it (the token encrypted for the current key, a challenge, then the authentication's
 * status), without redeeming an access token or opening a session. Nothing is sent.
 */
const ksefFetch = outboundFetch({ timeoutMs: 20_000, maxResponseBytes: 1024 * 1024 });
/** How often the authentication's status is read while KSeF says it is under way (code 100). */
const STATUS_READS = 10;

class KsefAnswerError extends Error {}

/** What KSeF said in a refusal, from a problem-details body or the older exception list. */
function refusalOf(status: number, text: string): string {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `HTTP ${status}`;
  }
  const problems = body.errors as { description?: string }[] | undefined;
  const legacy = (body.exception as { exceptionDetailList?: { exceptionDescription?: string }[] } | undefined)?.exceptionDetailList;
  const said = problems?.[0]?.description ?? legacy?.[0]?.exceptionDescription ?? (typeof body.detail === 'string' ? body.detail : undefined);
  return said ? `${said} (HTTP ${status})` : `HTTP ${status}`;
}

export async function testKsefConnection(input: {
  environment: KsefEnvironment;
  token: string;
  nip: string;
  localOrigin: string | undefined;
  sleep?: (ms: number) => Promise<void>;
}): Promise<ConnectionTest> {
  const test_mode = isTestEnvironment(input.environment);
  const result = (ok: boolean, message: string): ConnectionTest => ({ ok, target: input.environment, test_mode, message });
  const sleep = input.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let base: string;
  try {
    base = ksefHosts(input.environment, input.localOrigin).apiBaseUrl;
  } catch (error) {
    return result(false, error instanceof Error ? error.message : String(error));
  }
  const call = async <T>(method: string, path: string, init: { json?: unknown; bearer?: string } = {}): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json', 'x-error-format': 'problem-details' };
    if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const response = await ksefFetch(`${base}${path}`, { method, headers, ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }) });
    const text = await response.text();
    if (!response.ok) throw new KsefAnswerError(refusalOf(response.status, text));
    return JSON.parse(text) as T;
  };
  try {
    const certificates = await call<{ certificate: string; publicKeyId?: string; usage: string[]; validFrom: string; validTo: string }[]>('GET', '/security/public-key-certificates');
    const now = Date.now();
    const key = certificates.find((entry) => entry.usage.includes('KsefTokenEncryption') && Date.parse(entry.validFrom) <= now && now < Date.parse(entry.validTo));
    if (!key) return result(false, 'KSeF published no current key to encrypt the token with.');
    const challenge = await call<{ challenge: string; timestampMs: number }>('POST', '/auth/challenge');
    const started = await call<{ referenceNumber: string; authenticationToken: { token: string } }>('POST', '/auth/ksef-token', {
      json: {
        challenge: challenge.challenge,
        contextIdentifier: { type: 'Nip', value: input.nip },
        encryptedToken: encryptKsefToken(publicKeyOfCertificate(key.certificate), input.token, challenge.timestampMs),
        ...(key.publicKeyId ? { publicKeyId: key.publicKeyId } : {}),
      },
    });
    for (let read = 1; read <= STATUS_READS; read++) {
      const { status } = await call<{ status: { code: number; description: string; details?: string[] } }>('GET', `/auth/${encodeURIComponent(started.referenceNumber)}`, {
        bearer: started.authenticationToken.token,
      });
      if (status.code === 200) return result(true, `KSeF (${input.environment}) accepted the token for NIP ${input.nip}.`);
      if (status.code !== 100) {
        const details = status.details?.length ? `: ${status.details.join('; ')}` : '';
        return result(false, `KSeF refused the token: ${status.description} (${status.code})${details}`);
      }
      await sleep(Math.min(300 * read, 2000));
    }
    return result(false, 'KSeF had not finished the authentication after ten readings: try again in a minute.');
  } catch (error) {
    if (error instanceof KsefAnswerError) return result(false, `KSeF refused the authentication: ${error.message}`);
    return result(false, `KSeF could not be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
}
