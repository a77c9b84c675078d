import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningKsefDouble } from '../../src/service/ksef/double/server.js';
import { startLocalKsef } from '../../src/service/ksef/local.js';
import { signatureHeader } from '../../src/service/webhooks/deliveries.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { allBlocks, ROOT, where, type Block } from './support/blocks.js';

const run = promisify(execFile);

/** The blocks that can run here, run against the real service on 127.0.0.1. */
describe('the runnable code blocks, against the real service', () => {
  let service: TestService;
  let ksef: RunningKsefDouble;
  let blocks: Block[];
  let work: string;

  beforeAll(async () => {
    // The local KSeF the KSeF guides talk to, on a port of its own.
    ksef = await startLocalKsef({});
    [service, blocks, work] = await Promise.all([
      startTestService({ ksef: { localOrigin: ksef.origin } }),
      allBlocks(),
      mkdtemp(join(tmpdir(), 'invoicekit-docs-run-')),
    ]);
    // `invoicekit/api` resolves to this checkout's sources, as the published package maps it to its build.
    const pkg = join(work, 'node_modules', 'invoicekit');
    await mkdir(pkg, { recursive: true });
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'invoicekit', type: 'module', exports: { './api': './api.ts' } }));
    await writeFile(join(pkg, 'api.ts'), `export * from ${JSON.stringify(join(ROOT, 'src/api/index.ts'))};\n`);
    await writeFile(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await ksef?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('runs the typed client blocks that go on from the first example, and they answer what their comments say', async () => {
    const runnable = blocks.filter((block) => block.file === 'docs/typed-client.md' && block.continues !== undefined);
    expect(runnable.length).toBeGreaterThan(1);
    for (const block of runnable) {
      // `const x = await …; // price_gross "599.63"` is checked, not only printed.
      const claims = [...block.code.matchAll(/const (\w+) = await [^\n]*\/\/ price_gross "([\d.]+)"/g)].map(
        ([, name, gross]) => `if (${name}.price_gross !== '${gross}') throw new Error('${name}.price_gross is ' + ${name}.price_gross + ', the docs say ${gross}');`,
      );
      if (block.code.includes('price_gross "')) expect(claims.length).toBeGreaterThan(0);
      const name = join(work, `block${block.line}.ts`);
      await writeFile(name, [block.code, ...claims].join('\n'));
      const result = await run(join(ROOT, 'node_modules/.bin/tsx'), [name], {
        cwd: work,
        env: { ...process.env, INVOICING_URL: service.url, INVOICING_API_TOKEN: service.apiToken },
        timeout: 30_000,
      }).catch((error: { stderr: string }) => ({ failed: `${block.file}:${block.line}\n${error.stderr}` }));
      expect('failed' in result ? result.failed : '').toBe('');
    }
  }, 60_000);

  it("runs the webhook verifier as written: it takes the service's own signature and refuses a changed body or an old one", async () => {
    const [verifier] = blocks.filter((block) => block.file === 'docs/webhooks.md' && block.code.includes('export function verifyInvoicekitWebhook'));
    expect(verifier).toBeDefined();
    const name = join(work, 'verify.mjs');
    await writeFile(name, verifier!.code);
    const { verifyInvoicekitWebhook } = (await import(name)) as { verifyInvoicekitWebhook: (secret: string, header: string | undefined, body: string) => boolean };
    const body = JSON.stringify({ deal: { id: 42, number: '7/11/2026', status: 'paid' } });
    const header = signatureHeader('a-webhook-secret', body);
    expect(verifyInvoicekitWebhook('a-webhook-secret', header, body)).toBe(true);
    expect(verifyInvoicekitWebhook('a-webhook-secret', header, body.replace('42', '43'))).toBe(false);
    expect(verifyInvoicekitWebhook('another-secret', header, body)).toBe(false);
    expect(verifyInvoicekitWebhook('a-webhook-secret', signatureHeader('a-webhook-secret', body, Math.floor(Date.now() / 1000) - 3600), body)).toBe(false);
    expect(verifyInvoicekitWebhook('a-webhook-secret', undefined, body)).toBe(false);
  });

  it('runs the curl blocks that talk to the service, with its address and token in place of the placeholders', async () => {
    const curls = blocks.filter((block) => block.lang === 'sh' && /^curl /m.test(block.code) && /127\.0\.0\.1:87(87|89)|\$SERVICE/.test(block.code));
    expect(curls.length).toBeGreaterThan(4);
    const problems: string[] = [];
    // The KSeF token the local KSeF gives, once a block has asked it for one.
    let ksefToken = '';
    for (const block of curls) {
      const code = block.code
        .replaceAll('http://127.0.0.1:8787', service.url)
        .replaceAll('http://127.0.0.1:8789', ksef.origin)
        .replace(/"api_token": "(…|API_TOKEN)"/, `"api_token": "${service.apiToken}"`)
        .replace(/"token": ?"(20260302-EC-…|…the KSeF token…)"/, () => `"token": "${ksefToken}"`)
        // What is left elided is a secret of the reader's own (a Stripe key): any of its shape.
        .replaceAll('…', 'Zx7Qp2Lm9Rt4Vw8Yb3Nc6Kd1');
      // Every request must answer 2xx: curl says so by its exit status.
      const script = `curl() { command curl -sS --fail-with-body "$@"; }\n${code}`;
      const answer = await run('bash', ['-c', script], { env: { ...process.env, SERVICE: service.url, API_TOKEN: service.apiToken }, timeout: 20_000 }).catch(
        (error: { stdout: string; stderr: string }) => problems.push(`${where(block)} ${error.stdout}${error.stderr}`),
      );
      if (typeof answer === 'object' && code.includes('/local/tokens')) ksefToken = (JSON.parse(answer.stdout) as { token: string }).token;
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
