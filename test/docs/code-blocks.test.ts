import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allBlocks, MOST_FRAGMENTS, ROOT, SCRIPT_LANGS, where, type Block } from './support/blocks.js';

const run = promisify(execFile);

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
    blocks = await allBlocks();
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

  it('knows how to take the language of every block, so a block in a new one is not skipped unseen', () => {
    // Read as text: diagrams, file trees, HTTP exchanges and server configuration.
    const text = new Set(['', 'http', 'apache', 'nginx', 'css']);
    const checked = new Set([...Object.keys(SCRIPT_LANGS), 'sh', 'bash', 'shell', 'console', 'php', 'json', 'html', 'vue', 'svelte']);
    const unknown = blocks.filter((block) => !text.has(block.lang) && !checked.has(block.lang)).map((block) => `${where(block)} ${block.lang}`);
    expect(unknown).toEqual([]);
    expect(blocks.filter((block) => text.has(block.lang)).length).toBeLessThanOrEqual(15);
  });

  it('type-checks every TypeScript and JavaScript block against the package sources', async () => {
    const scripts = blocks.filter((block) => block.lang in SCRIPT_LANGS);
    expect(scripts.length).toBeGreaterThan(10);
    const files = new Map<string, Block>();
    scripts.forEach((block, index) => {
      // Each block is its own module, as a user's file would be.
      files.set(`block${index}.${SCRIPT_LANGS[block.lang]}`, block);
      if (block.alsoJavaScript) files.set(`block${index}.js`, { ...block, lang: 'js' });
    });
    expect([...files.values()].filter((block) => block.alsoJavaScript).length).toBeGreaterThan(0);
    const problems: string[] = [];
    const report = (block: Block, line: number, message: string) => problems.push(`${block.file}:${block.line + 1 + line} (${block.lang}) ${message}`);

    // A fragment is checked for its syntax alone: TypeScript's own parse of that one file.
    for (const [name, block] of files) {
      if (!block.fragment) continue;
      const { diagnostics = [] } = ts.transpileModule(block.code, { fileName: name, reportDiagnostics: true, compilerOptions: { jsx: ts.JsxEmit.ReactJSX, allowJs: true } });
      for (const diagnostic of diagnostics) {
        const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line : 0;
        report(block, line, ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      }
    }

    // The rest as one project of modules, on the native compiler (the same diagnostics as TypeScript
    // 5.9 in a fraction of the time). It lives under this checkout's node_modules, so the packages the
    // docs install next to ours (express, react) resolve as they would in the reader's project.
    await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
    const project = await mkdtemp(join(ROOT, 'node_modules/.cache/invoicekit-docs-'));
    try {
      const checked = [...files].filter(([, block]) => !block.fragment);
      // Blocks that are not modules of their own (no import or export) are still checked as modules.
      await Promise.all(checked.map(([name, block]) => writeFile(join(project, name), `${block.code}\nexport {};\n`)));
      await writeFile(join(project, 'host.d.ts'), HOST_APP);
      await writeFile(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            jsx: 'react-jsx',
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
            paths: Object.fromEntries(Object.entries(PATHS).map(([specifier, targets]) => [specifier, targets.map((target) => join(ROOT, target))])),
          },
          files: [...checked.map(([name]) => name), 'host.d.ts'],
        }),
      );
      const { stdout } = await run(process.execPath, [join(ROOT, 'node_modules/typescript7/bin/tsc'), '-p', project, '--pretty', 'false'], { cwd: project }).catch(
        (error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }),
      );
      // `file(line,col): error TS1234: message`, the message's chain on the indented lines after it.
      for (const diagnostic of stdout.split(/\n(?! )/).filter(Boolean)) {
        const found = /^(.+?)\((\d+),\d+\): error TS(\d+): ([\s\S]*)$/.exec(diagnostic);
        // By the file's name: tsc prints paths from the project's real folder, which differs from
        // `project` when node_modules is a link (a second checkout sharing the first one's).
        const block = found && files.get(basename(found[1]!));
        if (!found || !block) {
          problems.push(diagnostic);
          continue;
        }
        // Plain JavaScript leaves parameters untyped, as it should.
        if (SCRIPT_LANGS[block.lang] === 'js' && [7006, 7031].includes(Number(found[3]))) continue;
        report(block, Number(found[2]) - 1, found[4]!.replace(/\n\s+/g, '\n'));
      }
    } finally {
      await rm(project, { recursive: true, force: true });
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

