import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The room rules of `eslint.config.js`, run through ESLint's own API on source text placed in each
 * room: every arrow that must never exist is reported, and the arrows the architecture relies on
 * are not.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function roomErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

const forbidden: [room: string, filePath: string, code: string][] = [
  ['service → BFF', 'src/service/public/widget-extra.ts', "import type { RateLimitStore } from '../../bff/rate-limit.js';\nexport type Store = RateLimitStore;\n"],
  ['service → BFF, by re-export', 'src/service/extra.ts', "export { createBff } from '../bff/app.js';\n"],
  ['service → BFF, by package name', 'src/service/extra.ts', "import { createBff } from 'invoicekit/bff';\nexport const bff = createBff;\n"],
  ['service → elements', 'src/service/documents/extra.ts', "import { InvoiceList } from '../../elements/invoice-list/invoice-list.js';\nexport const list = InvoiceList;\n"],
  ['invoicing → HTTP layer', 'src/service/invoicing/extra.ts', "import { invalid } from '../http.js';\nexport const refuse = invalid;\n"],
  ['data layer → HTTP layer', 'src/service/store.ts', "import type { Account } from './http.js';\nexport type Owner = Account;\n"],
  ['invoicing → BFF', 'src/service/invoicing/extra.ts', "import type { BffOptions } from '../../bff/options.js';\nexport type Options = BffOptions;\n"],
  ['elements → service', 'src/elements/shared/extra.ts', "import { createApp } from '../../service/app.js';\nexport const app = createApp;\n"],
  ['elements → BFF', 'src/elements/invoice-list/extra.ts', "import type { BffOptions } from '../../bff/options.js';\nexport type Options = BffOptions;\n"],
  ['elements → server kit', 'src/elements/client-form/extra.ts', "import type { RateLimitRule } from '../../server-kit/rate-limit.js';\nexport type Rule = RateLimitRule;\n"],
  ['React wrappers → BFF', 'src/frameworks/react/extra.ts', "import { createBff } from '../../bff/app.js';\nexport const bff = createBff;\n"],
  ['client → service', 'src/api/extra.ts', "import { createApp } from '../service/app.js';\nexport const app = createApp;\n"],
  ['client → BFF', 'src/api/resources/extra.ts', "export * from '../../bff/views.js';\n"],
  ['client → elements', 'src/api/extra.ts', "import '../elements/invoice-list/define.js';\n"],
  ['server kit → service', 'src/server-kit/extra.ts', "import type { Sql } from '../service/db.js';\nexport type Db = Sql;\n"],
  ['server kit → BFF', 'src/server-kit/extra.ts', "import type { BffOptions } from '../bff/options.js';\nexport type Options = BffOptions;\n"],
];

const allowed: [arrow: string, filePath: string, code: string][] = [
  ['service → server kit', 'src/service/public/extra.ts', "import type { RateLimitStore } from '../../server-kit/rate-limit.js';\nexport type Store = RateLimitStore;\n"],
  ['service → client schemas', 'src/service/extra.ts', "import { money } from '../api/money.js';\nexport const m = money;\n"],
  ['invoicing → domain errors', 'src/service/invoicing/extra.ts', "import { Problems } from '../domain-errors.js';\nexport const problems = new Problems();\n"],
  ['HTTP routes → HTTP layer', 'src/service/resources/extra.ts', "import { respond } from '../http.js';\nexport const answer = respond;\n"],
  ['service → itself', 'src/service/public/extra.ts', "import type { Sql } from '../db.js';\nexport type Db = Sql;\n"],
  ['BFF → server kit', 'src/bff/extra.ts', "import type { RateLimitStore } from '../server-kit/rate-limit.js';\nexport type Store = RateLimitStore;\n"],
  ['BFF → service client', 'src/bff/extra.ts', "import { createClient } from '../api/client.js';\nexport const client = createClient;\n"],
  ['BFF → elements, to render them on the server', 'src/bff/render/extra.ts', "import { InvoiceList } from '../../elements/invoice-list/invoice-list.js';\nexport const list = InvoiceList;\n"],
  ['elements → wire contract', 'src/elements/shared/extra.ts', "import type { PortalInvoice } from '../../api/portal-contract.js';\nexport type Invoice = PortalInvoice;\n"],
  ['elements → a shared element module', 'src/elements/invoice-list/extra.ts', "import { loadCatalog } from '../shared/i18n.js';\nexport const load = loadCatalog;\n"],
  ['client → itself', 'src/api/resources/extra.ts', "import { money } from '../money.js';\nexport const m = money;\n"],
];

describe('room rules', () => {
  it.each(forbidden)('reports %s', async (_arrow, filePath, code) => {
    const errors = await roomErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/import is restricted from being used by a pattern\. The (service|domain|elements|client|shared server kit) /);
  });

  it.each(allowed)('allows %s', async (_arrow, filePath, code) => {
    expect(await roomErrors(filePath, code)).toEqual([]);
  });
});
