import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { installPackages, readmeExample, ROOT, run, toJavaScript, type Installed } from './support.js';

/**
 * The packages as users get them, installed from their tarballs (run `npm run build` first, as
 * `npm test` does): what each install weighs, and the product run as a server's author runs it: the
 * README's client example, the BFF in Express, every entry imported in plain Node, strict type checks
 * of every package, and the `invoicekit` commands. The elements in pages: packages-elements.test.ts.
 */
describe('the published packages, installed from their tarballs', () => {
  let installed: Installed | undefined;
  let work: string;
  let projects: Installed['projects'];
  let sizes: Installed['sizes'];
  let service: { url: string; apiToken: string };
  const startCommand: Installed['startCommand'] = (...args) => installed!.startCommand(...args);

  beforeAll(async () => {
    installed = await installPackages(['lit', 'elements', 'bff', 'service']);
    ({ work, projects, sizes } = installed);

    const apiToken = 'packaged-service-token-0123456789';
    const started = await startCommand(projects.service, ['invoicekit', 'service', '--port', '0', '--data-dir', join(work, 'data')], {
      INVOICEKIT_API_TOKEN: apiToken,
    });
    service = { url: started.url, apiToken };
  }, 600_000);

  afterAll(async () => {
    await installed?.stop();
  });

  it.concurrent('installs what the README says each package weighs, within a tenth', async ({ expect }) => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const stated = (install: string) => {
      const row = readme.split('\n').find((line) => line.includes(`\`npm install ${install}\``));
      return Number(/about (\d+(?:\.\d+)?) MiB/.exec(row ?? '')?.[1]);
    };
    const measured = { '@invoicekit/elements': sizes.elements!, '@invoicekit/bff': sizes.bff!, invoicekit: sizes.service! };
    for (const [install, bytes] of Object.entries(measured)) {
      const mib = bytes / 1024 / 1024;
      expect.soft(Math.abs(stated(install) - mib) / mib, `README says about ${stated(install)} MiB for ${install}; it is ${mib.toFixed(2)} MiB`).toBeLessThanOrEqual(0.1);
    }
  });

  // 1.59× before the elements shared their loading, scrolling and form controllers (each in its
  // bundle, its development build, its sources and its declarations): 1.66× since.
  it.concurrent('installs the elements for at most 1.70 times what lit alone installs', async ({ expect }) => {
    expect(sizes.elements).toBeGreaterThan(sizes.lit!);
    expect(sizes.elements! / sizes.lit!, `the elements install ${(sizes.elements! / sizes.lit!).toFixed(2)}× what lit alone does`).toBeLessThanOrEqual(1.7);
    // A page never pays for the service's database or PDF engine, nor a backend for the elements.
    expect(existsSync(join(projects.elements, 'node_modules/@electric-sql'))).toBe(false);
    expect(existsSync(join(projects.elements, 'node_modules/zod'))).toBe(false);
    expect(existsSync(join(projects.bff, 'node_modules/@electric-sql'))).toBe(false);
    expect(existsSync(join(projects.bff, 'node_modules/pdfkit'))).toBe(false);
    // The BFF renders `<invoice-list>` on the server with Lit's renderer, the one place it needs Lit.
    expect(existsSync(join(projects.bff, 'node_modules/@lit-labs/ssr'))).toBe(true);
  });

  it.concurrent('runs the README typed client example with plain node against `npx invoicekit service`', async ({ expect }) => {
    const example = await readmeExample('## Typed client');
    expect(example).toContain("from 'invoicekit/api'");
    await writeFile(join(projects.service, 'example.mjs'), toJavaScript(example));
    const { stdout } = await run(process.execPath, ['example.mjs'], {
      cwd: projects.service,
      env: { ...process.env, INVOICING_URL: service.url, INVOICING_API_TOKEN: service.apiToken },
      timeout: 60_000,
    });
    const lines = stdout.trim().split('\n');
    const [number, net, gross] = lines[0]!.split(' ');
    expect(number).toMatch(/^\d+\/\d{2}\/\d{4}$/);
    expect([net, gross]).toEqual(['58.32', '60.23']);
    expect(lines[1]).toBe('tax 1.91');
    expect(lines.at(-1)).toBe("{ issue_date: [ 'is not a valid date' ] }");

    // The invoice it made is there to read, over plain HTTP too.
    const list = (await (await fetch(`${service.url}/invoices.json?period=all&api_token=${service.apiToken}`)).json()) as { id: number; number: string }[];
    const made = list.find((invoice) => invoice.number === number)!;
    const read = await fetch(`${service.url}/invoices/${made.id}.json?api_token=${service.apiToken}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: made.id, number, price_gross: '60.23', buyer_name: 'Client1 SA' });
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  }, 120_000);

  it.concurrent('serves the built pay button for the widget and the back office script from the installed package', async ({ expect }) => {
    const packaged = join(projects.service, 'node_modules/invoicekit/dist');
    for (const [path, built] of [['/widget/product-pay-button.js', 'widget/product-pay-button.js'], ['/admin/assets/admin.js', 'admin/admin.js']] as const) {
      const answer = await fetch(`${service.url}${path}`);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-type'), path).toMatch(/javascript/);
      // The installed build itself, byte for byte: the package carries no sources to bundle.
      expect(await answer.text(), path).toBe(await readFile(join(packaged, built), 'utf8'));
    }
  }, 60_000);

  it.concurrent('mounts the BFF in Express as the README shows, and answers a portal request', async ({ expect }) => {
    const { createInvoicingClient } = (await import(join(projects.service, 'node_modules/invoicekit/dist/lib/api/index.js'))) as typeof import('../../src/api/index.js');
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken });
    const buyer = await client.clients.create({ name: 'Portal Buyer Sp. z o.o.', email: 'buyer@example.com', tax_no: '5261040828' });
    const invoice = await client.invoices.create({
      kind: 'vat',
      client_id: buyer.id,
      buyer_name: buyer.name,
      positions: [{ name: 'Hosting', tax: 23, total_price_gross: '123.45', quantity: 1 }],
    });

    // Express is the host's own dependency: linked in, as the host's project would have it.
    await symlink(join(ROOT, 'node_modules/express'), join(projects.bff, 'node_modules/express'), 'dir');
    const example = await readmeExample('## Running the BFF');
    expect(example).toContain("from '@invoicekit/bff'");
    const host = [
      // What the README leaves to the host: who is signed in.
      `const requireLogin = (req, _res, next) => { req.user = { invoicingClientId: ${buyer.id} }; next(); };`,
      // The README says the same lines are JavaScript: they run as written, not transpiled.
      example,
      `const server = app.listen(0, '127.0.0.1', () => console.log('host listening on http://127.0.0.1:' + server.address().port));`,
    ].join('\n');
    // Imports first: the stand-in for the login goes after them.
    const imports = host.split('\n').filter((line) => line.startsWith('import '));
    await writeFile(join(projects.bff, 'host.mjs'), [...imports, ...host.split('\n').filter((line) => !line.startsWith('import '))].join('\n'));
    const started = await startCommand(projects.bff, [process.execPath, 'host.mjs'], {
      INVOICING_URL: service.url,
      INVOICEKIT_API_TOKEN: service.apiToken,
      INVOICEKIT_PORTAL_SECRET: 'a-portal-secret-of-at-least-32-characters',
    }, /host listening on (\S+)/);

    const { token } = (await (await fetch(`${started.url}/account/portal-token`)).json()) as { token: string };
    const answer = await fetch(`${started.url}/bff/invoices`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { data: { id: number; number: string; price_gross: string }[]; total: number };
    expect(body.total).toBe(1);
    expect(body.data[0]).toMatchObject({ id: invoice.id, number: invoice.number, price_gross: '123.45' });
    // The installed package renders the list on the server, with the element's own modules.
    const rendered = await fetch(`${started.url}/bff/render/invoice-list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ locale: 'pl' }),
    });
    expect(rendered.status).toBe(200);
    const fragment = await rendered.text();
    expect(fragment).toMatch(/^<invoice-list [^>]*locale="pl"[^>]*><template shadowroot="open" shadowrootmode="open">/);
    expect(fragment).toContain(`>${invoice.number}</th>`);
    expect((await fetch(`${started.url}/bff/readyz`)).status).toBe(200);
  }, 120_000);

  it.concurrent('type-checks every package in a fresh strict project without skipLibCheck, with TypeScript 5.9 and the newest major', async ({ expect }) => {
    // Each package alone, as its own users' projects hold it: no @types/node, no `types`, declarations checked.
    const checks: Record<'elements' | 'bff' | 'service', string> = {
      elements: `import '@invoicekit/elements';
import { InvoiceList } from '@invoicekit/elements';
import { ClientChangeEvent, type ClientChangeEventDetail, type ClientForm } from '@invoicekit/elements/client-form.js';
import type { ProductPayButton } from '@invoicekit/elements/product-pay-button.js';
export const list: typeof InvoiceList = InvoiceList;
export const form: ClientForm | ProductPayButton | null = null;
export const field: ClientChangeEventDetail['field'] = 'email';
// @ts-expect-error a form field is one of the client's fields, not any text
export const wrong: ClientChangeEventDetail['field'] = 'not-a-field';
export const change = ClientChangeEvent;
`,
      bff: `import { createBff, issuePortalToken } from '@invoicekit/bff';
import { createInvoicingClient, money } from '@invoicekit/bff/api';
import { createTransport } from '@invoicekit/bff/api/transport.js';
export const made = [createBff, issuePortalToken, createInvoicingClient, money, createTransport];
`,
      service: `import { startService, createServiceApp, openDatabase, migrate } from 'invoicekit/service';
import { createBff } from 'invoicekit/bff';
import { createInvoicingClient } from 'invoicekit/api';
import { createTransport } from 'invoicekit/api/transport.js';
import type { InvoiceList } from 'invoicekit/elements/invoice-list.js';
export const made = [startService, createServiceApp, openDatabase, migrate, createBff, createInvoicingClient, createTransport];
export const list: InvoiceList | null = null;
`,
    };
    const compilers = { 'TypeScript 5.9': join(ROOT, 'node_modules/typescript/bin/tsc'), 'TypeScript 7': join(ROOT, 'node_modules/typescript7/bin/tsc') };
    const outputs: Record<string, string> = {};
    await Promise.all(
      Object.entries(checks).map(async ([name, source]) => {
        const dir = join(projects[name as keyof typeof checks], 'strict');
        await mkdir(dir);
        await writeFile(join(dir, 'check.ts'), source);
        await writeFile(
          join(dir, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM', 'DOM.Iterable'], strict: true, noEmit: true, types: [] },
            files: ['check.ts'],
          }),
        );
        for (const [compiler, tsc] of Object.entries(compilers)) {
          const result = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
          outputs[`${name} with ${compiler}`] = result.stdout;
        }
      }),
    );
    expect(outputs).toEqual(Object.fromEntries(Object.keys(outputs).map((key) => [key, ''])));
    expect((await run(process.execPath, [compilers['TypeScript 7'], '--version'])).stdout).toMatch(/^Version 7\./);
  }, 400_000);

  it.concurrent('imports every entry of every package in plain Node without throwing, and resolves every path the docs name', async ({ expect }) => {
    const entries: Record<'elements' | 'bff' | 'service', string[]> = { elements: [], bff: [], service: [] };
    const packageOf = { '@invoicekit/elements': 'elements', '@invoicekit/bff': 'bff', invoicekit: 'service' } as const;
    for (const [name, project] of Object.entries(packageOf)) {
      const manifest = JSON.parse(await readFile(join(projects[project], 'node_modules', name, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
      for (const key of Object.keys(manifest.exports)) {
        if (key.includes('*') || key.endsWith('.json')) continue;
        // The React wrappers need React, an optional peer the user brings; they are imported in their own test.
        if (key.startsWith('./react')) continue;
        entries[project].push(key === '.' ? name : `${name}/${key.slice(2)}`);
      }
    }
    entries.elements.push('@invoicekit/elements/invoice-list.js', '@invoicekit/elements/client-form.js', '@invoicekit/elements/product-pay-button.js');
    entries.bff.push('@invoicekit/bff/api/transport.js', '@invoicekit/bff/api/transport', '@invoicekit/bff/api/money.js');
    entries.service.push('invoicekit/api/transport.js', 'invoicekit/api/transport', 'invoicekit/elements/invoice-list.js');

    // Every package specifier and installed file the README and docs/ name, in the project that installs its package.
    const docs = [join(ROOT, 'README.md'), ...(await readdir(join(ROOT, 'docs'))).filter((file) => file.endsWith('.md')).map((file) => join(ROOT, 'docs', file))];
    const named = new Set<string>();
    for (const file of [...docs, join(ROOT, 'packages/elements/README.md'), join(ROOT, 'packages/bff/README.md')]) {
      const text = await readFile(file, 'utf8');
      for (const [, specifier] of text.matchAll(/(?:from\s+|import\s*\(?\s*)['"]((?:@invoicekit\/(?:elements|bff)|invoicekit)(?:\/[^'"]*)?)['"]/g)) named.add(specifier!);
      for (const [, specifier] of text.matchAll(/node_modules\/((?:@invoicekit\/(?:elements|bff)|invoicekit)\/[\w./-]+)/g)) named.add(`file:${specifier!}`);
    }
    expect(named.size).toBeGreaterThan(5);
    const files: string[] = [];
    for (const specifier of named) {
      const bare = specifier.replace(/^file:/, '');
      const name = bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : bare.split('/')[0]!;
      const project = packageOf[name as keyof typeof packageOf];
      if (specifier.startsWith('file:')) files.push(join(projects[project], 'node_modules', bare));
      else if (!/\/(vue|svelte|react)(\/|$)/.test(bare)) entries[project].push(bare);
    }
    for (const file of files) expect(existsSync(file), file).toBe(true);

    const results: Record<string, string> = {};
    for (const [project, specifiers] of Object.entries(entries)) {
      const script = `const failed = {};
for (const specifier of ${JSON.stringify([...new Set(specifiers)])}) {
  try { await import(specifier); } catch (error) { failed[specifier] = String(error.message).split('\\n')[0]; }
}
console.log(JSON.stringify({ failed, registry: typeof customElements }));`;
      await writeFile(join(projects[project as keyof typeof entries], 'import-all.mjs'), script);
      const { stdout } = await run(process.execPath, ['import-all.mjs'], { cwd: projects[project as keyof typeof entries], timeout: 60_000 });
      results[project] = JSON.parse(stdout).failed;
    }
    expect(results).toEqual({ elements: {}, bff: {}, service: {} });
    expect(entries.elements).toContain('@invoicekit/elements');
  }, 120_000);

  it.concurrent('runs `npx invoicekit bff` and `npx invoicekit dev` from the installed package', async ({ expect }) => {
    const bff = await startCommand(projects.service, ['invoicekit', 'bff', '--port', '0', '--service', service.url], {
      INVOICEKIT_API_TOKEN: service.apiToken,
      INVOICEKIT_PORTAL_SECRET: 'a-portal-secret-of-at-least-32-characters',
    }, /bff listening on (\S+)/);
    expect(await (await fetch(`${bff.url}/bff/healthz`)).json()).toEqual({ status: 'ok' });

    const dev = await startCommand(projects.service, ['invoicekit', 'dev', '--port', '0', '--service-port', '0', '--data-dir', join(work, 'dev-data')], {}, /invoicekit demo on (\S+) /);
    const portal = await fetch(`${dev.url}/portal.html`);
    expect(portal.status).toBe(200);
    expect(await portal.text()).toContain('<invoice-list');
  }, 400_000);
});
