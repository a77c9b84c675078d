import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidKsefNumber } from '../../../src/service/ksef/gateway.js';
import { connectAccountToLocalKsef } from '../../../src/service/ksef/local.js';
import { killServices, spawnService, startTestService, type TestService } from '../../helpers/service.js';

/** `invoicekit service --ksef-local`: the bundled KSeF beside the service, and an account connected to it. */
describe('invoicekit service --ksef-local', () => {
  const dirs: string[] = [];
  let plain: TestService;
  // Started in a hook: the first start of a seeded service may build the shared template database.
  beforeAll(async () => {
    plain = await startTestService({ seed: true });
  });
  afterAll(async () => {
    await plain.stop();
    killServices();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('runs the local KSeF, connects the seeded demo account, and an invoice sent with gov_save_and_send gets its KSeF number', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-ksef-local-'));
    dirs.push(dataDir);
    // A folder of its own, migrated and seeded by the command itself: nothing another test left in a
    // shared template can reach the local KSeF's state.
    const apiToken = 'ksef-local-demo-token';
    const service = await spawnService(['--ksef-local', '--ksef-local-port', '0', '--seed', '--quiet', '--data-dir', dataDir], { INVOICEKIT_API_TOKEN: apiToken });
    const origin = /local KSeF \(test double\) listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(service.output())?.[1];
    expect(origin).toBeDefined();
    const headers = { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json', accept: 'application/json' };

    const settings = await fetch(`${service.url}/account/ksef.json`, { headers });
    expect(await settings.json()).toMatchObject({ ksef: { environment: 'local', token_set: true } });

    const today = new Date().toISOString().slice(0, 10);
    const created = await fetch(`${service.url}/invoices.json`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        gov_save_and_send: true,
        invoice: {
          issue_date: today,
          sell_date: today,
          buyer_name: 'Klient ABC Sp. z o.o.',
          buyer_tax_no: '9876543210',
          buyer_company: true,
          buyer_street: 'ul. Testowa 5',
          buyer_post_code: '00-002',
          buyer_city: 'Kraków',
          buyer_country: 'PL',
          positions: [{ name: 'Usługa', quantity: 1, total_price_gross: 123, tax: 23 }],
        },
      }),
    });
    const invoice = (await created.json()) as { id: number; gov_status: string };
    expect(created.status, JSON.stringify(invoice)).toBe(201);
    expect(invoice.gov_status).toBe('demo_processing');

    // The service sends in the background; read until KSeF has decided.
    let sent: { gov_status: string; gov_id: string; gov_verification_link: string } | undefined;
    for (let reading = 0; reading < 120; reading++) {
      sent = (await (await fetch(`${service.url}/invoices/${invoice.id}.json`, { headers })).json()) as typeof sent;
      if (sent?.gov_status !== 'demo_processing') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(sent?.gov_status).toBe('demo_ok');
    expect(isValidKsefNumber(sent!.gov_id)).toBe(true);
    expect(sent!.gov_verification_link.startsWith(`${origin}/qr/invoice/5252248481/`)).toBe(true);
    const page = await fetch(sent!.gov_verification_link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(sent!.gov_id);

    expect(await connectAccountToLocalKsef(service.url, apiToken, { issueToken: () => 'another token', issueOfflineCertificate: unused })).toBeNull();

    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
  }, 120_000);

  it('refuses to connect an account where the local KSeF does not run', async () => {
    const double = {
      issueToken: (nip: string) => `token for ${nip}`,
      issueOfflineCertificate: () => ({ serialNumber: '10', certificatePem: 'certificate', privateKeyPem: 'key' }),
    };
    await expect(connectAccountToLocalKsef(plain.url, plain.apiToken, double)).rejects.toThrow(/422/);
  });
});

/** A certificate issuer the test expects not to be asked. */
function unused(): never {
  throw new Error('no certificate is issued here');
}
