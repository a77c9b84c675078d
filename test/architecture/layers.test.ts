import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The rules of `.dependency-cruiser.cjs`, run through dependency-cruiser's own API: on sample trees
 * written to a temporary folder, each rule fires on the import it forbids (also through a chain of
 * imports) and not on the imports the architecture relies on; on the real tree, none fires. Also
 * checked here, since no import shows them: every module of the service has a layer, and SQL is
 * written only in the data layer and in the modules the config still lists.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const configFile = join(root, '.dependency-cruiser.cjs');
const config = createRequire(import.meta.url)(configFile) as {
  layers: { name: string; path: string[] }[];
  sqlOutsideData: string[];
  forbidden: { name: string; from: { path?: string | string[] }; to: { path?: string | string[]; pathNot?: string | string[] } }[];
};

type Violation = [rule: string, from: string, to: string];

let options: ICruiseOptions;
const folders: string[] = [];

beforeAll(async () => {
  options = await extractDepcruiseOptions(configFile);
});

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

function violationsOf(result: ICruiseResult): Violation[] {
  return result.summary.violations.map((violation): Violation => [violation.rule.name, violation.from, violation.to]).sort();
}

/** The rules' violations in a tree made of `files` (paths relative to the tree's root). */
async function violations(files: Record<string, string>): Promise<Violation[]> {
  return violationsOf(await cruiseTree(files));
}

/** Each circle reported in a tree made of `files`: the modules it goes through, from where it is reported. */
async function circles(files: Record<string, string>): Promise<string[][]> {
  const { summary } = await cruiseTree(files);
  return summary.violations.filter((violation) => violation.rule.name === 'no-circular').map((violation) => [violation.from, ...(violation.cycle ?? []).map((step) => step.name)]);
}

async function cruiseTree(files: Record<string, string>): Promise<ICruiseResult> {
  const base = await mkdtemp(join(tmpdir(), 'invoicekit-layers-'));
  folders.push(base);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), text);
  }
  const { output } = await cruise(['src'], { ...options, baseDir: base, tsConfig: undefined });
  return output as ICruiseResult;
}

const exporting = (name: string) => `export const ${name} = 1;\n`;
const importing = (path: string, name = 'x') => `import { ${name} } from '${path}';\nexport const y = ${name};\n`;
const importingType = (path: string, name = 'x') => `import type { ${name} } from '${path}';\nexport type Y = typeof ${name};\n`;

describe('no import circle in the service or the BFF', () => {
  it('reports a circle of type-only imports in the service', async () => {
    expect(
      await circles({
        'src/service/store.ts': `import type { Sql } from './db.js';\nexport type Row = Sql;\nexport const x = 1;\n`,
        'src/service/db.ts': `import type { x } from './store.js';\nexport type Sql = typeof x;\n`,
      }),
    ).toEqual([['src/service/db.ts', 'src/service/store.ts', 'src/service/db.ts']]);
  });

  it('reports a circle of three in the BFF', async () => {
    expect(
      await circles({
        'src/bff/a.ts': importing('./b.js', 'b') + exporting('a'),
        'src/bff/b.ts': importing('./c.js', 'c').replace('const y', 'const yb') + exporting('b'),
        'src/bff/c.ts': importingType('./a.js', 'a') + exporting('c'),
      }),
    ).toEqual([['src/bff/a.ts', 'src/bff/b.ts', 'src/bff/c.ts', 'src/bff/a.ts']]);
  });

  it('leaves the elements alone', async () => {
    expect(
      await violations({
        'src/elements/list/list.ts': importing('./events.js', 'e') + exporting('l'),
        'src/elements/list/events.ts': importingType('./list.js', 'l') + exporting('e'),
      }),
    ).toEqual([]);
  });
});

describe('rooms, through any chain of imports', () => {
  const forbidden: [rule: string, from: string, to: string][] = [
    ['room-service', 'src/service/extra.ts', 'src/bff/options.ts'],
    ['room-service', 'src/service/extra.ts', 'src/elements/list/list.ts'],
    ['room-bff', 'src/bff/extra.ts', 'src/service/db.ts'],
    ['room-elements', 'src/elements/list/extra.ts', 'src/api/client.ts'],
    ['room-elements', 'src/frameworks/react/extra.ts', 'src/server-kit/rate-limit.ts'],
    ['room-api', 'src/api/extra.ts', 'src/server-kit/rate-limit.ts'],
    ['room-server-kit', 'src/server-kit/extra.ts', 'src/service/db.ts'],
    ['room-kernel', 'src/kernel/extra.ts', 'src/api/client.ts'],
    ['room-einvoice', 'src/einvoice/extra.ts', 'src/service/db.ts'],
    ['room-einvoice', 'src/einvoice/extra.ts', 'src/api/client.ts'],
    ['room-widget', 'src/widget/extra.ts', 'src/kernel/money.ts'],
    ['room-admin', 'src/admin/views/extra.ts', 'src/service/db.ts'],
    ['room-admin', 'src/admin/extra.ts', 'src/api/client.ts'],
    ['room-contract', 'src/contract/extra.ts', 'src/kernel/money.ts'],
  ];

  it.each(forbidden)('%s: %s may not import %s', async (rule, from, to) => {
    const path = relative(dirname(from), to).replace(/\.ts$/, '.js');
    const found = await violations({ [from]: importingType(path.startsWith('.') ? path : `./${path}`), [to]: exporting('x') });
    expect(found).toContainEqual([rule, from, to]);
  });

  it('reports a room reached through a module that is in no room', async () => {
    const found = await violations({
      'src/service/extra.ts': importing('../../vendor/shim.js'),
      'vendor/shim.ts': importing('../src/bff/options.js'),
      'src/bff/options.ts': exporting('x'),
    });
    expect(found).toEqual([['room-service', 'src/service/extra.ts', 'src/bff/options.ts']]);
  });

  it('reports a package in the contract', async () => {
    expect(await violations({ 'src/contract/extra.ts': "import { z } from 'zod';\nexport const shape = z;\n" })).toEqual([['room-contract', 'src/contract/extra.ts', 'zod']]);
  });

  it('allows the arrows the architecture relies on', async () => {
    expect(
      await violations({
        'src/service/extra.ts': importing('../api/schemas/invoice.js', 'a') + importing('../server-kit/rate-limit.js', 'b').replace('const y', 'const y2') + importing('../kernel/money.js', 'c').replace('const y', 'const y3'),
        'src/bff/render/extra.ts': importing('../../elements/list/list.js', 'l') + importing('../../api/client.js', 'a').replace('const y', 'const y2'),
        'src/elements/list/list.ts': importing('../../kernel/money.js', 'c') + importing('../../contract/portal.js', 'p').replace('const y', 'const y2') + exporting('l'),
        'src/api/schemas/invoice.ts': importing('../../kernel/money.js', 'c') + exporting('a'),
        'src/api/client.ts': importing('../contract/portal.js', 'p') + exporting('a'),
        'src/kernel/money.ts': importing('../contract/portal.js', 'p') + exporting('c'),
        'src/server-kit/rate-limit.ts': exporting('b'),
        'src/contract/portal.ts': importing('./sale.js', 's') + exporting('p'),
        'src/contract/sale.ts': exporting('s'),
      }),
    ).toEqual([]);
  });
});

describe("the service's layers", () => {
  it('reports each layer importing one above it', async () => {
    expect(
      await violations({
        'src/service/http.ts': exporting('x'),
        'src/service/resources/clients.ts': exporting('x'),
        'src/service/application/issuing.ts': exporting('x'),
        'src/service/invoicing/amounts.ts': exporting('x'),
        'src/service/application/extra.ts': importingType('../http.js'),
        'src/service/invoicing/extra.ts': importing('../resources/clients.js'),
        'src/service/ksef/extra.ts': importing('../application/issuing.js'),
        'src/service/data/extra.ts': importing('../invoicing/amounts.js'),
      }),
    ).toEqual([
      ['layer-application', 'src/service/application/extra.ts', 'src/service/http.ts'],
      ['layer-application-transitive', 'src/service/application/extra.ts', 'src/service/http.ts'],
      ['layer-data', 'src/service/data/extra.ts', 'src/service/invoicing/amounts.ts'],
      ['layer-data-transitive', 'src/service/data/extra.ts', 'src/service/invoicing/amounts.ts'],
      ['layer-domain', 'src/service/invoicing/extra.ts', 'src/service/resources/clients.ts'],
      ['layer-domain', 'src/service/ksef/extra.ts', 'src/service/application/issuing.ts'],
      ['layer-domain-transitive', 'src/service/invoicing/extra.ts', 'src/service/resources/clients.ts'],
      ['layer-domain-transitive', 'src/service/ksef/extra.ts', 'src/service/application/issuing.ts'],
    ]);
  });

  it('reports a layer reaching one above it through a module no layer covers', async () => {
    expect(
      await violations({
        'src/service/store.ts': importing('../../vendor/shim.js'),
        'vendor/shim.ts': importing('../src/service/public/pages.js'),
        'src/service/public/pages.ts': exporting('x'),
      }),
    ).toEqual([['layer-data-transitive', 'src/service/store.ts', 'src/service/public/pages.ts']]);
  });

  it('allows every layer to import its own and the layers below it', async () => {
    expect(
      await violations({
        'src/service/app.ts': importing('./resources/clients.js', 'a') + importing('./application/issuing.js', 'b').replace('const y', 'const y2'),
        'src/service/resources/clients.ts': importing('../invoicing/clients.js', 'c') + exporting('a'),
        'src/service/application/issuing.ts': importing('../invoicing/invoices.js', 'd') + importing('../data/clients.js', 'e').replace('const y', 'const y2') + exporting('b'),
        'src/service/invoicing/clients.ts': importing('../data/clients.js', 'e') + exporting('c'),
        'src/service/invoicing/invoices.ts': importing('../store.js', 'f') + importing('./clients.js', 'c').replace('const y', 'const y2') + exporting('d'),
        'src/service/data/clients.ts': importing('../store.js', 'f') + exporting('e'),
        'src/service/store.ts': importing('./domain-errors.js', 'g') + exporting('f'),
        'src/service/domain-errors.ts': exporting('g'),
      }),
    ).toEqual([]);
  });

  it('allows the listed exceptions and no other import of the same module', async () => {
    expect(
      await violations({
        'src/service/resources/payments.ts': exporting('x'),
        'src/service/resources/products.ts': exporting('x'),
        'src/service/webhooks/deliveries.ts': `${importing('../resources/payments.js')}${importing('../resources/products.js').replace('const y', 'const y3')}`,
      }),
    ).toEqual([['layer-application', 'src/service/webhooks/deliveries.ts', 'src/service/resources/products.ts']]);
  });

  it('keeps the pages and the payment providers apart', async () => {
    expect(
      await violations({
        'src/service/public/pages.ts': importing('../payments/stripe.js') + exporting('p'),
        'src/service/payments/stripe.ts': exporting('x'),
        'src/service/payments/przelewy24.ts': importing('../public/widget.js'),
        'src/service/public/widget.ts': exporting('x'),
      }),
    ).toEqual([
      ['pages-and-providers-apart', 'src/service/payments/przelewy24.ts', 'src/service/public/widget.ts'],
      ['pages-and-providers-apart', 'src/service/public/pages.ts', 'src/service/payments/stripe.ts'],
    ]);
  });
});

describe('the real tree', () => {
  let result: ICruiseResult;

  beforeAll(async () => {
    result = (await cruise(['src'], { ...options, baseDir: root })).output as ICruiseResult;
  }, 120_000);

  it('breaks no rule', () => {
    expect(violationsOf(result)).toEqual([]);
  });

  it('still makes every listed exception, so that the list only shrinks', () => {
    const made = new Set(result.modules.flatMap((module) => module.dependencies.map((dependency) => `${module.source} → ${dependency.resolved}`)));
    const listed = config.forbidden
      .filter((rule) => rule.name.startsWith('layer-') && typeof rule.from.path === 'string' && rule.to.pathNot !== undefined)
      .flatMap((rule) => [rule.to.pathNot].flat().map((to) => `${unexact(rule.from.path as string)} → ${unexact(to!)}`));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((arrow) => !made.has(arrow))).toEqual([]);
  });
});

/** `^src/a[.]ts$` back to `src/a.ts`. */
const unexact = (pattern: string) => pattern.replace(/^\^/, '').replace(/\$$/, '').replace(/\[\.\]/g, '.');

describe('every module of the service', () => {
  let files: string[];

  beforeAll(async () => {
    files = (await readdir(join(root, 'src/service'), { recursive: true }))
      .filter((path) => path.endsWith('.ts'))
      .map((path) => `src/service/${path.split('\\').join('/')}`)
      .sort();
  });

  const layerOf = (file: string) => config.layers.find((layer) => layer.path.some((path) => new RegExp(path).test(file)))?.name;

  it('has a layer', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => layerOf(file) === undefined)).toEqual([]);
  });

  // SQL as the service writes it: a statement opening a string.
  const SQL = /[`'"]\s*(select\s|insert\s+into\s|update\s+[a-z_]+\s+set\s|delete\s+from\s|with\s+[a-z_]+\s+as\s|create\s+(table|index|unique)|alter\s+table|lock\s+table|truncate\s)/i;

  it('writes SQL only in the data layer, or is still listed in the config', async () => {
    const writing: string[] = [];
    for (const file of files) if (SQL.test(await readFile(join(root, file), 'utf8'))) writing.push(file);
    expect(writing.filter((file) => layerOf(file) !== 'data' && !config.sqlOutsideData.includes(file))).toEqual([]);
    // A listed module that stopped writing SQL leaves the list.
    expect(config.sqlOutsideData.filter((file) => !writing.includes(file) || layerOf(file) === 'data')).toEqual([]);
  });

  it('finds SQL where the data layer writes it', async () => {
    expect(SQL.test(await readFile(join(root, 'src/service/data/clients.ts'), 'utf8'))).toBe(true);
    expect(SQL.test('const name = "selected";')).toBe(false);
  });
});
