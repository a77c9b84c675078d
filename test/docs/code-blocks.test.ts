import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningKsefDouble } from '../../src/service/ksef/double/server.js';
import { startLocalKsef } from '../../src/service/ksef/local.js';
import { signatureHeader } from '../../src/service/webhooks/deliveries.js';
import { startTestService, type TestService } from '../helpers/service.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
/** A block that cannot stand alone says so by this comment on the line right before its fence. */
const FRAGMENT = '<!-- fragment -->';
/** A block that goes on from the file's script block before it: checked and run with that one first. */
const CONTINUES = '<!-- continues -->';
/** A TypeScript block the text says is JavaScript too is checked as both. */
const ALSO_JAVASCRIPT = '<!-- also javascript -->';
/** Fragments are kept few: each one is a block nothing checks beyond its syntax. */
const MOST_FRAGMENTS = 12;

interface Block {
  file: string;
  line: number;
  lang: string;
  code: string;
  fragment: boolean;
  alsoJavaScript: boolean;
  /** The line of the block this one goes on from. */
  continues?: number;
}

/**
 * The guides a user reads: README.md and docs/*.md. `docs/decisions/` is left out on purpose: those are
 * records of why something was decided, true on the day they were written, and their snippets quote
 * the code as it stood then.
 */
async function guides(): Promise<string[]> {
  const docs = (await readdir(join(ROOT, 'docs'))).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`);
  return ['README.md', ...docs.sort()];
}

const SCRIPT_LANGS: Record<string, string> = { ts: 'ts', typescript: 'ts', tsx: 'tsx', js: 'js', javascript: 'js', mjs: 'js', jsx: 'jsx' };

export function extractBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let at = 0; at < lines.length; at++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[at]!);
    if (!open) continue;
    const [, indent, fence, lang] = open as unknown as [string, string, string, string];
    let end = at + 1;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(fence)) end++;
    const code = lines
      .slice(at + 1, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join('\n');
    const marker = (lines[at - 1] ?? '').trim();
    const block: Block = { file, line: at + 1, lang: lang.toLowerCase(), code, fragment: marker === FRAGMENT, alsoJavaScript: marker === ALSO_JAVASCRIPT };
    if (marker === CONTINUES) {
      const before = blocks.findLast((each) => each.lang in SCRIPT_LANGS);
      if (!before) throw new Error(`${file}:${at + 1} continues no block`);
      Object.assign(block, { code: `${before.code}\n${code}`, continues: before.line });
    }
    blocks.push(block);
    at = end;
  }
  return blocks;
}

const where = (block: Block) => `${block.file}:${block.line}`;

/** The package specifiers the docs use, resolved to the sources the built packages are made from. */
const PATHS: Record<string, string[]> = {
  'invoicekit/api': ['src/api/index.ts'],
  'invoicekit/api/*': ['src/api/*.ts'],
  'invoicekit/bff': ['src/bff/index.ts'],
  'invoicekit/service': ['src/service/index.ts'],
  '@invoicekit/bff': ['src/bff/index.ts'],
  '@invoicekit/bff/api': ['src/api/index.ts'],
  '@invoicekit/bff/api/*': ['src/api/*.ts'],
  '@invoicekit/elements': ['src/elements/index.ts'],
  '@invoicekit/elements/react': ['src/frameworks/react.ts'],
  '@invoicekit/elements/react/*.js': ['src/frameworks/react/*.ts'],
  '@invoicekit/elements/*.js': ['src/elements/*/define.ts'],
};

/**
 * What the examples leave to the reader's own app, by the names the text gives them: the sign-in check
 * and who is signed in, the token the backend minted, the page's own handlers. Everything else a
 * block uses it imports or declares itself.
 */
const HOST_APP = `
import type { NextFunction, Request, Response } from 'express';
declare global {
  namespace Express {
    interface Request { user: { invoicingClientId: number; locale: 'en' | 'pl' } }
  }
  function requireLogin(req: Request, res: Response, next: NextFunction): void;
  function portalTokenFor(user: Express.Request['user']): Promise<string>;
  function portalTokenForSession(): Promise<string>;
  const token: string;
  const termsAccepted: boolean;
  function openCheckout(invoice: unknown, paymentUrl: string | undefined): void;
  function setCustomer(client: unknown): void;
  function report(action: string, fields: unknown): void;
  function showThanks(number: string | undefined): void;
  function offerAnotherCard(): void;
}
export {};
`;


describe('the code blocks in README.md and docs/', () => {
  let blocks: Block[];
  let work: string;

  beforeAll(async () => {
    blocks = [];
    for (const file of await guides()) blocks.push(...extractBlocks(file, await readFile(join(ROOT, file), 'utf8')));
    work = await mkdtemp(join(tmpdir(), 'invoicekit-docs-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('finds the blocks, and keeps the fragments few', () => {
    const fragments = blocks.filter((block) => block.fragment);
    console.log(`${blocks.length} code blocks, ${fragments.length} marked as fragments: ${fragments.map(where).join(', ')}`);
    expect(blocks.length).toBeGreaterThan(40);
    expect(fragments.length).toBeLessThanOrEqual(MOST_FRAGMENTS);
  });

  it('type-checks every TypeScript and JavaScript block against the package sources', () => {
    const scripts = blocks.filter((block) => block.lang in SCRIPT_LANGS);
    expect(scripts.length).toBeGreaterThan(10);
    const files = new Map<string, Block>();
    scripts.forEach((block, index) => {
      // Each block is its own module, as a user's file would be.
      files.set(join(work, `block${index}.${SCRIPT_LANGS[block.lang]}`), block);
      if (block.alsoJavaScript) files.set(join(work, `block${index}.js`), { ...block, lang: 'js' });
    });
    expect([...files.values()].filter((block) => block.alsoJavaScript).length).toBeGreaterThan(0);
    const host = join(work, 'host.d.ts');
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      jsx: ts.JsxEmit.ReactJSX,
      strict: true,
      allowJs: true,
      checkJs: true,
      noEmit: true,
      skipLibCheck: true,
      experimentalDecorators: true,
      useDefineForClassFields: false,
      esModuleInterop: true,
      resolveJsonModule: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
      baseUrl: ROOT,
      paths: PATHS,
    };
    const compilerHost = ts.createCompilerHost(options);
    const read = compilerHost.readFile.bind(compilerHost);
    const exists = compilerHost.fileExists.bind(compilerHost);
    // Blocks that are not modules of their own (no import or export) are still checked as modules.
    const source = (name: string) => `${files.get(name)!.code}\nexport {};\n`;
    compilerHost.readFile = (name) => (name === host ? HOST_APP : files.has(name) ? source(name) : read(name));
    compilerHost.fileExists = (name) => name === host || files.has(name) || exists(name);
    // Packages the docs install next to ours (express, react) resolve from this checkout's node_modules.
    const resolveFrom = join(ROOT, 'package.json');
    compilerHost.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions) =>
      literals.map((literal) => {
        const resolved = ts.resolveModuleName(literal.text, containingFile, compilerOptions, compilerHost, undefined, redirected);
        if (resolved.resolvedModule || !files.has(containingFile)) return resolved;
        return ts.resolveModuleName(literal.text, resolveFrom, compilerOptions, compilerHost, undefined, redirected);
      });
    const program = ts.createProgram([...files.keys(), host], options, compilerHost);
    const problems: string[] = [];
    for (const [name, block] of files) {
      const file = program.getSourceFile(name)!;
      const diagnostics = block.fragment
        ? program.getSyntacticDiagnostics(file)
        : [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].filter(
            // Plain JavaScript leaves parameters untyped, as it should.
            (diagnostic) => !(SCRIPT_LANGS[block.lang] === 'js' && [7006, 7031].includes(diagnostic.code)),
          );
      for (const diagnostic of diagnostics) {
        const { line } = diagnostic.start === undefined ? { line: 0 } : file.getLineAndCharacterOfPosition(diagnostic.start);
        problems.push(`${block.file}:${block.line + 1 + line} (${block.lang}) ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('parses every shell block with bash -n', async () => {
    const shells = blocks.filter((block) => ['sh', 'bash', 'shell', 'console'].includes(block.lang));
    expect(shells.length).toBeGreaterThan(5);
    const problems: string[] = [];
    await Promise.all(
      shells.map(async (block) => {
        const code = block.code
          .split('\n')
          .map((line) => line.replace(/^\$ /, ''))
          .join('\n');
        await run('bash', ['-n', '-c', code]).catch((error: { stderr: string }) => problems.push(`${where(block)} ${error.stderr.trim()}`));
      }),
    );
    expect(problems).toEqual([]);
  });

  it('lints every PHP block with php -l', async () => {
    const php = blocks.filter((block) => block.lang === 'php');
    expect(php.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const [index, block] of php.entries()) {
      const name = join(work, `block${index}.php`);
      await writeFile(name, block.code.trimStart().startsWith('<?php') ? block.code : `<?php\n${block.code}\n`);
      await run('php', ['-l', name]).catch((error: { stdout: string }) => problems.push(`${where(block)} ${error.stdout.trim()}`));
    }
    expect(problems).toEqual([]);
  });

  it('parses every JSON block', () => {
    const json = blocks.filter((block) => block.lang === 'json');
    expect(json.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const block of json) {
      try {
        JSON.parse(block.code);
      } catch (error) {
        problems.push(`${where(block)} ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('uses in HTML only the custom elements and attributes the manifest declares', async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, 'custom-elements.json'), 'utf8')) as {
      modules: { declarations?: { tagName?: string; attributes?: { name: string }[] }[] }[];
    };
    const elements = new Map<string, Set<string>>();
    for (const module of manifest.modules) {
      for (const declaration of module.declarations ?? []) {
        if (declaration.tagName) elements.set(declaration.tagName, new Set((declaration.attributes ?? []).map((attribute) => attribute.name)));
      }
    }
    // Global attributes any element takes.
    const global = new Set(['id', 'class', 'style', 'hidden', 'lang', 'dir', 'title', 'slot', 'part', 'tabindex', 'nonce']);
    const markup = blocks.filter((block) => ['html', 'vue', 'svelte'].includes(block.lang));
    expect(markup.length).toBeGreaterThan(5);
    const problems: string[] = [];
    let used = 0;
    for (const block of markup) {
      const code = block.code.replace(/<!--[\s\S]*?-->/g, '');
      for (const tag of code.matchAll(/<([a-z][a-z0-9]*-[a-z0-9-]*)((?:\s+[^\s=>/]+(?:=(?:"[^"]*"|'[^']*'|\{[^}]*\}|[^\s>]+))?)*)\s*\/?>/g)) {
        const [, name, attributes] = tag as unknown as [string, string, string];
        const known = elements.get(name);
        if (!known) {
          problems.push(`${where(block)} <${name}> is no element of ours`);
          continue;
        }
        used++;
        // Vue and Svelte bind properties (`:portalToken`, `portalToken={…}`) and events (`@x`, `onx`): only plain attributes are checked.
        for (const [, attribute] of attributes.matchAll(/([^\s=>/]+)(?:=(?:"[^"]*"|'[^']*'|\{[^}]*\}|[^\s>]+))?/g) as unknown as Iterable<[string, string]>) {
          if (block.lang !== 'html' && /^[:@]|^on|[A-Z]/.test(attribute)) continue;
          if (!known.has(attribute) && !global.has(attribute)) problems.push(`${where(block)} <${name}> has no attribute ${attribute}`);
        }
      }
    }
    expect(used).toBeGreaterThan(5);
    expect(problems).toEqual([]);
  });
});

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
      (async () => (await Promise.all((await guides()).map(async (file) => extractBlocks(file, await readFile(join(ROOT, file), 'utf8'))))).flat())(),
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
