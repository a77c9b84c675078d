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
  ['BFF → service', 'src/bff/routes/extra.ts', "import { createApp } from '../../service/app.js';\nexport const app = createApp;\n"],
  ['BFF → service, by type', 'src/bff/extra.ts', "import type { Sql } from '../service/db.js';\nexport type Db = Sql;\n"],
  ['elements → client runtime', 'src/elements/shared/extra.ts', "import { createInvoicingClient } from '../../api/client.js';\nexport const client = createInvoicingClient;\n"],
  ['elements → client schemas', 'src/elements/invoice-list/extra.ts', "import type { Invoice } from '../../api/schemas/invoice.js';\nexport type Row = Invoice;\n"],
  ['kernel → client', 'src/kernel/extra.ts', "import { createTransport } from '../api/transport.js';\nexport const transport = createTransport;\n"],
  ['kernel → service', 'src/kernel/validation/extra.ts', "import type { Sql } from '../../service/db.js';\nexport type Db = Sql;\n"],
  ['kernel → BFF', 'src/kernel/extra.ts', "export { createBff } from '../bff/app.js';\n"],
  ['kernel → server kit', 'src/kernel/extra.ts', "import type { RateLimitRule } from '../server-kit/rate-limit.js';\nexport type Rule = RateLimitRule;\n"],
  ['kernel → elements', 'src/kernel/extra.ts', "import '../elements/invoice-list/define.js';\n"],
  ['e-invoice → service', 'src/einvoice/extra.ts', "import type { Sql } from '../service/db.js';\nexport type Db = Sql;\n"],
  ['e-invoice → client', 'src/einvoice/extra.ts', "import { invoice } from '../api/schemas/invoice.js';\nexport const shape = invoice;\n"],
  ['contract → kernel', 'src/contract/extra.ts', "import type { Decimal } from '../kernel/money.js';\nexport type Amount = Decimal;\n"],
  ['contract → client', 'src/contract/extra.ts', "import type { Invoice } from '../api/schemas/invoice.js';\nexport type Row = Invoice;\n"],
  ['contract → BFF', 'src/contract/extra.ts', "export type { BffOptions } from '../bff/options.js';\n"],
  ['contract → a package', 'src/contract/extra.ts', "import { z } from 'zod';\nexport const shape = z.object({});\n"],
  ['widget → service', 'src/widget/extra.ts', "import type { ProductData } from '../service/resources/products.js';\nexport type Product = ProductData;\n"],
  ['widget → elements', 'src/widget/extra.ts', "import '../elements/product-pay-button/define.js';\n"],
  ['widget → kernel', 'src/widget/extra.ts', "import { decimal } from '../kernel/money.js';\nexport const d = decimal;\n"],
  ['back office → service', 'src/admin/views/extra.ts', "import type { ProductData } from '../../service/resources/products.js';\nexport type Product = ProductData;\n"],
  ['back office → client', 'src/admin/extra.ts', "import { createClient } from '../api/client.js';\nexport const client = createClient;\n"],
];

const allowed: [arrow: string, filePath: string, code: string][] = [
  ['service → server kit', 'src/service/public/extra.ts', "import type { RateLimitStore } from '../../server-kit/rate-limit.js';\nexport type Store = RateLimitStore;\n"],
  ['service → client schemas', 'src/service/extra.ts', "import { invoiceCreateInput } from '../api/schemas/invoice.js';\nexport const schema = invoiceCreateInput;\n"],
  ['invoicing → domain errors', 'src/service/invoicing/extra.ts', "import { Problems } from '../domain-errors.js';\nexport const problems = new Problems();\n"],
  ['HTTP routes → HTTP layer', 'src/service/resources/extra.ts', "import { respond } from '../http.js';\nexport const answer = respond;\n"],
  ['service → itself', 'src/service/public/extra.ts', "import type { Sql } from '../db.js';\nexport type Db = Sql;\n"],
  ['BFF → server kit', 'src/bff/extra.ts', "import type { RateLimitStore } from '../server-kit/rate-limit.js';\nexport type Store = RateLimitStore;\n"],
  ['BFF → service client', 'src/bff/extra.ts', "import { createClient } from '../api/client.js';\nexport const client = createClient;\n"],
  ['BFF → elements, to render them on the server', 'src/bff/render/extra.ts', "import { InvoiceList } from '../../elements/invoice-list/invoice-list.js';\nexport const list = InvoiceList;\n"],
  ['elements → wire contract', 'src/elements/shared/extra.ts', "import type { CustomerInvoice } from '../../contract/portal.js';\nexport type Invoice = CustomerInvoice;\n"],
  ['elements → wire contract lists', 'src/elements/invoice-list/extra.ts', "import { PORTAL_LIST_PERIODS } from '../../contract/portal.js';\nexport const periods = PORTAL_LIST_PERIODS;\n"],
  ['elements → kernel', 'src/elements/product-pay-button/extra.ts', "import { buyerProblems } from '../../kernel/checkout.js';\nexport const check = buyerProblems;\n"],
  ['kernel → contract', 'src/kernel/extra.ts', "import type { CheckoutBuyer } from '../contract/sale.js';\nexport type Buyer = CheckoutBuyer;\n"],
  ['kernel → itself and its packages', 'src/kernel/validation/extra.ts', "import { z } from 'zod';\nimport { decimal } from '../money.js';\nexport const amount = z.string().transform((text) => decimal(text));\n"],
  ['e-invoice → kernel and contract', 'src/einvoice/extra.ts', "import { decimal } from '../kernel/money.js';\nimport type { ErrorBody } from '../contract/errors.js';\nexport const d = decimal;\nexport type Body = ErrorBody;\n"],
  ['service → e-invoice', 'src/service/einvoice/extra.ts', "import { toUbl } from '../../einvoice/index.js';\nexport const write = toUbl;\n"],
  ['contract → itself', 'src/contract/extra.ts', "import type { KsefView } from './ksef.js';\nexport type Ksef = KsefView;\n"],
  ['client → kernel', 'src/api/extra.ts', "import { decimal } from '../kernel/money.js';\nexport const d = decimal;\n"],
  ['client → contract', 'src/api/resources/extra.ts', "import type { ErrorBody } from '../../contract/errors.js';\nexport type Body = ErrorBody;\n"],
  ['BFF → contract', 'src/bff/routes/extra.ts', "import { ERROR_CODES } from '../../contract/errors.js';\nexport const codes = ERROR_CODES;\n"],
  ['BFF → kernel', 'src/bff/extra.ts', "import { decimal } from '../kernel/money.js';\nexport const d = decimal;\n"],
  ['service → kernel', 'src/service/invoicing/extra.ts', "import { decimal } from '../../kernel/money.js';\nexport const d = decimal;\n"],
  ['service → contract', 'src/service/public/extra.ts', "import type { SaleProduct } from '../../contract/sale.js';\nexport type Product = SaleProduct;\n"],
  ['elements → a shared element module', 'src/elements/invoice-list/extra.ts', "import { loadCatalog } from '../shared/i18n.js';\nexport const load = loadCatalog;\n"],
  ['widget → itself', 'src/widget/extra.ts', "import type { WidgetScriptOptions } from './options.js';\nexport type Options = WidgetScriptOptions;\n"],
  ['back office → elements', 'src/admin/views/extra.ts', "import '../../elements/product-pay-button/define.js';\n"],
  ['back office → wire contract', 'src/admin/extra.ts', "import type { ErrorBody } from '../contract/errors.js';\nexport type Body = ErrorBody;\n"],
  ['client → itself', 'src/api/resources/extra.ts', "import { createTransport } from '../transport.js';\nexport const transport = createTransport;\n"],
];

describe('room rules', () => {
  it.each(forbidden)('reports %s', async (_arrow, filePath, code) => {
    const errors = await roomErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/import is restricted from being used by a pattern\. The (service|domain|elements|client|shared server kit|BFF|kernel|contract|widget|back office|e-invoice) /);
  });

  it.each(allowed)('allows %s', async (_arrow, filePath, code) => {
    expect(await roomErrors(filePath, code)).toEqual([]);
  });
});
