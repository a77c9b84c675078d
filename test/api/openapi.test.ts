import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/service/openapi.js';

describe('OpenAPI document', () => {
  const document = openApiDocument('http://127.0.0.1:8787/');

  it('validates against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is checked by a validator that does refuse a broken document', async () => {
    const broken = structuredClone(document) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    broken.paths['/invoices.json']!['get']!['responses'] = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('names the server and describes each format, including the odd payment paths', () => {
    expect(document['servers']).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:8787' })]);
    const paths = document['paths'] as Record<string, Record<string, { operationId: string }>>;
    expect(paths['/banking/payment/{id}.json']!['get']!.operationId).toBe('getPayment');
    expect(paths['/banking/payments/{id}.xml']!['get']!.operationId).toBe('getPaymentXml');
    expect(paths['/banking/payment/{id}.xml']).toBeUndefined();
    expect(paths['/invoices/{id}.pdf']!['get']!.operationId).toBe('getInvoicePdf');
    expect(Object.keys(paths['/invoices.json']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/invoices/{id}.xml']!).sort()).toEqual(['delete', 'get', 'patch', 'put']);
    expect(paths['/invoices/cancel.json']!['post']!.operationId).toBe('cancelInvoice');
    expect(paths['/users.xml']).toBeUndefined();
    const ids = Object.values(paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('takes its schemas from the zod schemas: money as decimal strings, kinds as enums', () => {
    const schemas = (document['components'] as { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> }).schemas;
    expect(schemas['Invoice']!.properties['price_gross']).toEqual({ type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' });
    expect(schemas['Invoice']!.properties['id']).toEqual({ type: 'number' });
    expect(schemas['InvoiceCreateInput']!.properties['kind']).toMatchObject({ anyOf: [expect.objectContaining({ enum: expect.arrayContaining(['vat', 'proforma']) }), { type: 'null' }] });
    expect(schemas['ErrorBody']!.properties['message']).toBeDefined();
  });

  it("lists the invoice list's query parameters, extensions included", () => {
    const paths = document['paths'] as Record<string, Record<string, { parameters: { name: string; in: string; description?: string }[] }>>;
    const names = paths['/invoices.json']!['get']!.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['period', 'client_id', 'status', 'number_contains', 'fields', 'order', 'page', 'per_page']));
  });

  it("describes the list's summary extension: the parameter, and the header it answers in", () => {
    const list = (document['paths'] as Record<string, Record<string, { parameters: { name: string; description?: string }[]; responses: Record<string, { headers?: Record<string, { description: string; schema: Record<string, unknown> }> }> }>>)['/invoices.json']!['get']!;
    expect(list.parameters.find((p) => p.name === 'summary')?.description).toMatch(/X-Invoicekit-Summary/);
    const header = list.responses['200']!.headers!['X-Invoicekit-Summary']!;
    expect(header.description).toMatch(/summary=true/);
    expect(header.schema['contentSchema']).toEqual({ $ref: '#/components/schemas/InvoiceSummary' });
  });

  it('states where the tokens go', () => {
    const paths = document['paths'] as Record<string, Record<string, Record<string, unknown>>>;
    const create = paths['/invoices.json']!['post']!;
    const body = (create['requestBody'] as { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> }).content['application/json']!.schema;
    expect(Object.keys(body.properties)).toEqual(['api_token', 'invoice']);
    expect(body.required).toEqual(['invoice']);
    expect(create['security']).toEqual([{ apiToken: [] }, { bearer: [] }]);
    expect(paths['/account.json']!['get']!['security']).toEqual([{ apiToken: [], integrationToken: [] }]);
  });

  it('gives every answer its X-Request-Id, and the POSTs of the API their Idempotency-Key and its errors', () => {
    const paths = document['paths'] as Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }> }>>;
    const answers = Object.values(paths).flatMap((item) => Object.values(item).flatMap((operation) => Object.values(operation.responses)));
    expect(answers.length).toBeGreaterThan(300);
    expect(answers.filter((answer) => (answer.headers?.['X-Request-Id'] as { $ref?: string } | undefined)?.$ref !== '#/components/headers/RequestId')).toEqual([]);
    const components = document['components'] as { headers: Record<string, { schema: unknown }>; schemas: Record<string, unknown> };
    expect(components.headers['RequestId']!.schema).toEqual({ type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' });
    expect(components.schemas['IdempotencyKeyReused']).toEqual({
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { const: 'idempotency_key_reused' }, message: { type: 'string' } },
    });

    const create = paths['/invoices.json']!['post']!;
    expect(create.parameters!.filter((p) => p.in === 'header').map((p) => p.name)).toEqual(['Idempotency-Key']);
    expect(create.responses['422']!.content!['application/json']!.schema).toEqual({
      oneOf: [{ $ref: '#/components/schemas/ErrorBody' }, { $ref: '#/components/schemas/IdempotencyKeyReused' }],
    });
    expect(Object.keys(create.responses).sort()).toEqual(['201', '401', '409', '422']);
    // Reads, updates and the integration endpoints take no key.
    expect(paths['/invoices.json']!['get']!.parameters!.some((p) => p.name === 'Idempotency-Key')).toBe(false);
    expect(paths['/invoices/{id}.json']!['put']!.parameters!.some((p) => p.name === 'Idempotency-Key')).toBe(false);
    expect(paths['/login.json']!['post']!.parameters!.some((p) => p.name === 'Idempotency-Key')).toBe(false);
  });
});
