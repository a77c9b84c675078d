import type { Hono } from 'hono';
import { add, decimal, HUNDRED, mul, div, round, toPlain, toWire, ZERO, negate, type Decimal } from '../../kernel/money.js';
import {
  warehouseDocumentCreateInput,
  warehouseDocumentListQuery,
  warehouseDocumentUpdateInput,
} from '../../api/schemas/warehouse-document.js';
import type { z } from 'zod';
import { type DepartmentData, defaultDepartment, defaultWarehouseId } from '../accounts.js';
import type { Sql } from '../db.js';
import { type Account, invalid, type ServiceEnv } from '../http.js';
import { Problems } from '../domain-errors.js';
import { findRow, insertRow, type StoredRow, timestampText, todayText } from '../store.js';
import { normalizeTax, taxRate } from '../invoicing/amounts.js';
import { assignNumber } from '../invoicing/numbering.js';
import type { ClientData } from '../data/clients.js';
import { addToStockLevel, type ProductData, productByName } from '../data/products.js';
import { newProductData } from './products.js';
import { mountCrud } from './crud.js';

interface ActionData {
  id: number;
  product_id: number;
  product_name: string;
  quantity: string;
  price_net: string;
  tax: string;
}

export interface WarehouseDocumentData {
  kind: 'pz' | 'wz' | 'mm';
  number: string;
  warehouse_id: number;
  issue_date: string;
  department_id: number | null;
  department_name: string | null;
  client_id: number | null;
  client_name: string | null;
  description: string | null;
  value_net: string;
  value_gross: string;
  warehouse_actions: ActionData[];
}

type CreateInput = z.output<typeof warehouseDocumentCreateInput>;
type ActionInput = NonNullable<CreateInput['warehouse_actions']>[number];

function present(row: StoredRow<WarehouseDocumentData>) {
  const d = row.data;
  return {
    id: row.id,
    kind: d.kind,
    number: d.number,
    warehouse_id: d.warehouse_id,
    issue_date: d.issue_date,
    department_id: d.department_id,
    department_name: d.department_name,
    client_id: d.client_id,
    client_name: d.client_name,
    description: d.description,
    value_net: d.value_net,
    value_gross: d.value_gross,
    warehouse_actions: d.warehouse_actions.map((a) => ({ ...a, warehouse_document_id: row.id })),
    created_at: timestampText(row.created_at),
    updated_at: timestampText(row.updated_at),
  };
}

/** `pz` raises stock, `wz` lowers it; `sign` −1 undoes a document. */
async function moveStock(tx: Sql, account: Account, data: WarehouseDocumentData, sign: 1 | -1): Promise<void> {
  if (data.kind === 'mm') return;
  const direction = data.kind === 'pz' ? sign : -sign;
  for (const action of data.warehouse_actions) {
    const quantity = direction > 0 ? decimal(action.quantity) : negate(decimal(action.quantity));
    await addToStockLevel(tx, account.id, data.warehouse_id, action.product_id, toPlain(quantity));
  }
}

async function buildActions(tx: Sql, account: Account, kind: string, inputs: ActionInput[]): Promise<ActionData[]> {
  const problems = new Problems();
  const actions: ActionData[] = [];
  for (const [index, input] of inputs.entries()) {
    const at = (field: string) => `warehouse_actions.${index}.${field}`;
    if (input._destroy) continue;
    let productId = input.product_id ?? null;
    let product: ProductData | undefined;
    if (productId != null) {
      product = (await findRow<ProductData>(tx, 'products', account.id, productId))?.data;
      if (!product) problems.add(at('product_id'), 'does not exist');
    } else if (input.product_name?.trim()) {
      const name = input.product_name.trim();
      const existing = await productByName(tx, account.id, name);
      if (existing) {
        productId = existing.id;
        product = existing.data;
      } else if (kind === 'pz') {
        // Goods received under a new name become a product of the catalogue.
        const data = await newProductData(tx, account, {
          name,
          price_net: input.purchase_price_net ?? input.price_net ?? '0',
          tax: input.purchase_tax ?? input.tax ?? undefined,
        });
        const row = await insertRow(tx, 'products', account.id, data);
        productId = row.id;
        product = data;
      } else {
        problems.add(at('product_name'), 'does not exist');
      }
    } else {
      problems.add(at('product_id'), "can't be blank");
    }
    if (input.quantity == null) problems.add(at('quantity'), "can't be blank");
    else if (decimal(input.quantity).units <= 0n) problems.add(at('quantity'), 'must be greater than 0');
    if (!product || productId == null || input.quantity == null) continue;
    const price = kind === 'pz' ? (input.purchase_price_net ?? input.price_net) : (input.price_net ?? input.purchase_price_net);
    const tax = kind === 'pz' ? (input.purchase_tax ?? input.tax) : (input.tax ?? input.purchase_tax);
    actions.push({
      id: (await tx.sequenceValues('line_ids', 1))[0]!,
      product_id: productId,
      product_name: product.name,
      quantity: toWire(decimal(input.quantity)),
      price_net: toWire(decimal(price ?? product.price_net)),
      tax: normalizeTax(tax ?? product.tax),
    });
  }
  problems.throwIfAny();
  return actions;
}

function values(actions: ActionData[]): { value_net: string; value_gross: string } {
  let net: Decimal = ZERO;
  let gross: Decimal = ZERO;
  for (const action of actions) {
    const lineNet = round(mul(decimal(action.price_net), decimal(action.quantity)), 2);
    net = add(net, lineNet);
    gross = add(gross, add(lineNet, round(div(mul(lineNet, taxRate(action.tax)), HUNDRED, 10), 2)));
  }
  return { value_net: toWire(net), value_gross: toWire(gross) };
}

async function parties(tx: Sql, account: Account, input: Partial<CreateInput>) {
  const problems = new Problems();
  let department: StoredRow<DepartmentData> | undefined;
  if (input.department_id != null) {
    department = await findRow<DepartmentData>(tx, 'departments', account.id, input.department_id);
    if (!department) problems.add('department_id', 'does not exist');
  } else if (!input.department_name) {
    department = await defaultDepartment(tx, account.id);
  }
  let client: StoredRow<ClientData> | undefined;
  if (input.client_id != null) {
    client = await findRow<ClientData>(tx, 'clients', account.id, input.client_id);
    if (!client) problems.add('client_id', 'does not exist');
  }
  let warehouseId = input.warehouse_id ?? undefined;
  if (warehouseId != null) {
    if (!(await findRow(tx, 'warehouses', account.id, warehouseId))) problems.add('warehouse_id', 'does not exist');
  } else {
    warehouseId = await defaultWarehouseId(tx, account.id);
    // An account whose warehouses were all deleted has no default to move stock in.
    if (warehouseId == null) problems.add('warehouse_id', "can't be blank");
  }
  problems.throwIfAny();
  return {
    department_id: department?.id ?? null,
    department_name: input.department_name ?? department?.data.name ?? null,
    client_id: client?.id ?? null,
    client_name: input.client_name ?? client?.data.name ?? null,
    warehouse_id: warehouseId!,
  };
}

export function mountWarehouseDocuments(app: Hono<ServiceEnv>): void {
  mountCrud<WarehouseDocumentData, typeof warehouseDocumentCreateInput, typeof warehouseDocumentUpdateInput>(app, {
    table: 'warehouse_documents',
    references: { warehouse_id: 'warehouses' },
    wrapper: 'warehouse_document',
    listRoot: 'warehouse_documents',
    createSchema: warehouseDocumentCreateInput,
    updateSchema: warehouseDocumentUpdateInput,
    listQuery: warehouseDocumentListQuery,
    order: `data->>'issue_date' desc, id desc`,
    filters(query, f) {
      if (query.kind) f.add((p) => `data->>'kind' = ${p}`, query.kind);
      if (query.warehouse_id) f.add((p) => `(data->>'warehouse_id')::integer = ${p}`, query.warehouse_id);
    },
    present,
    async create(tx, account, input) {
      const problems = new Problems();
      if (!input.kind) problems.add('kind', "can't be blank");
      if (!input.warehouse_actions?.length) problems.add('warehouse_actions', "can't be blank");
      problems.throwIfAny();
      const kind = input.kind!;
      const who = await parties(tx, account, input);
      const actions = await buildActions(tx, account, kind, input.warehouse_actions!);
      const issueDate = input.issue_date ?? todayText();
      const data: WarehouseDocumentData = {
        kind,
        number: await assignNumber(tx, account.id, kind, issueDate, input.number, 0, 'warehouse_documents'),
        issue_date: issueDate,
        ...who,
        description: input.description ?? null,
        ...values(actions),
        warehouse_actions: actions,
      };
      await moveStock(tx, account, data, 1);
      return data;
    },
    async update(tx, account, current, input, c) {
      await moveStock(tx, account, current, -1);
      const kind = input.kind ?? current.kind;
      const who = await parties(tx, account, {
        department_id: input.department_id !== undefined ? input.department_id : current.department_id,
        department_name: input.department_name ?? (input.department_id !== undefined ? undefined : current.department_name),
        client_id: input.client_id !== undefined ? input.client_id : current.client_id,
        client_name: input.client_name ?? (input.client_id !== undefined ? undefined : current.client_name),
        warehouse_id: input.warehouse_id ?? current.warehouse_id,
      });
      let actions = current.warehouse_actions;
      if (input.warehouse_actions) {
        const mentioned = new Set<number>();
        const inputs: ActionInput[] = [];
        for (const [index, action] of input.warehouse_actions.entries()) {
          if (action.id == null) {
            if (!action._destroy) inputs.push(action);
            continue;
          }
          const existing = actions.find((a) => a.id === action.id);
          if (!existing) throw invalid({ [`warehouse_actions.${index}.id`]: ['does not exist'] });
          mentioned.add(existing.id);
          if (action._destroy) continue;
          const given = Object.fromEntries(Object.entries(action).filter(([, v]) => v !== undefined && v !== null));
          inputs.push({ product_id: existing.product_id, price_net: existing.price_net, tax: existing.tax, quantity: existing.quantity, ...given, id: undefined });
        }
        actions = [...actions.filter((a) => !mentioned.has(a.id)), ...(await buildActions(tx, account, kind, inputs))];
        if (actions.length === 0) throw invalid({ warehouse_actions: ["can't be blank"] });
      }
      const issueDate = input.issue_date ?? current.issue_date;
      const numberChanged = (input.number !== undefined && input.number !== current.number) || kind !== current.kind;
      const data: WarehouseDocumentData = {
        ...current,
        kind,
        number: numberChanged
          ? await assignNumber(tx, account.id, kind, issueDate, input.number ?? null, Number(c.req.param('id')), 'warehouse_documents')
          : current.number,
        issue_date: issueDate,
        ...who,
        description: input.description !== undefined ? (input.description ?? null) : current.description,
        ...values(actions),
        warehouse_actions: actions,
      };
      await moveStock(tx, account, data, 1);
      return data;
    },
    beforeDelete: (tx, account, row) => moveStock(tx, account, row.data, -1),
  });
}
