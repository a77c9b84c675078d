import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKsefDouble } from '../../../src/service/ksef/double/app.js';
import { localApiPath, sha256Base64 } from '../../../src/service/ksef/gateway.js';
import { describeOutsidePostgresPass } from '../../helpers/passes.js';
import { exampleInvoice, startDoubleWorld, testClock, type DoubleWorld } from './double-support.js';

/** The Ministry's OpenAPI document of KSeF API 2.0, shipped as test data (see data/SOURCE.md). */
const document = JSON.parse(readFileSync(new URL('./data/ksef-api-2.0.openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

interface Operation {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>;
}

/** OpenAPI 3.0's `nullable` as JSON Schema: the value or null. */
function jsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const { nullable, example, ...rest } = schema as Record<string, unknown>;
  void example;
  const converted = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, key === '$ref' ? String(value).replace(/^#/, 'ksef#') : key === 'properties' ? mapValues(value, jsonSchema) : jsonSchema(value)]),
  );
  return nullable ? { anyOf: [converted, { type: 'null' }] } : converted;
}

function mapValues(value: unknown, map: (entry: unknown) => unknown): unknown {
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, entry]) => [key, map(entry)]));
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
ajv.addFormat('int32', { type: 'number', validate: (value: number) => Number.isInteger(value) });
ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
ajv.addSchema({ $id: 'ksef', components: { schemas: mapValues(document.components.schemas, jsonSchema) } });

const compiled = new Map<unknown, ValidateFunction>();
function validatorOf(schema: unknown): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(jsonSchema(schema) as object)));
  return validate;
}

/** The document's path template for a concrete path, and its operation. */
function operationOf(method: string, path: string): { template: string; operation: Operation } | undefined {
  const candidates = Object.keys(document.paths).filter((template) => {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(path) && document.paths[template]?.[method.toLowerCase()];
  });
  // A literal segment beats a parameter: `/sessions/online` over `/sessions/{referenceNumber}`.
  const template = candidates.sort((a, b) => a.split('{').length - b.split('{').length)[0];
  return template ? { template, operation: document.paths[template]![method.toLowerCase()]! } : undefined;
}

interface Exchange {
  method: string;
  path: string;
  requestBody: unknown;
  status: number;
  contentType: string;
  headers: Headers;
  body: string;
}

describeOutsidePostgresPass('the KSeF double against the official OpenAPI document', () => {
  const clock = testClock('2026-03-02T09:30:00.000Z');
  const exchanges: Exchange[] = [];
  let world: DoubleWorld;

  beforeAll(async () => {
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(String(input));
      const body = await response.clone().text();
      exchanges.push({
        method: init?.method ?? 'GET',
        path: url.pathname.slice(localApiPath.length),
        requestBody: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        status: response.status,
        contentType: (response.headers.get('content-type') ?? '').split(';')[0] ?? '',
        headers: response.headers,
        body,
      });
      return response;
    };
    world = await startDoubleWorld(clock.now, { fetch: recording });
    const nip = '5265877635';
    const token = world.double.issueToken(nip);
    const xml = exampleInvoice(nip, '2026-03-01', '2001');
    const accepted = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml });
    await world.double.settled();
    await world.client.outcome(accepted, token);
    world.double.failNext({ status: 429, retryAfterSeconds: 2, pathPrefix: '/sessions/online' });
    const duplicate = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml });
    const invalid = await world.client.submit({ environment: 'local', sellerNip: nip, token, xml: xml.replace('<P_2>', '<P_2x>').replace('</P_2>', '</P_2x>') });
    await world.double.settled();
    await world.client.outcome(duplicate, token);
    await world.client.outcome(invalid, token);
    const forged = token.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    await world.client.submit({ environment: 'local', sellerNip: nip, token: forged, xml }).catch(() => undefined);
    // KSeF's 400 in both of its shapes: Problem Details when asked for, the older ExceptionResponse otherwise.
    for (const errorFormat of [{ 'X-Error-Format': 'problem-details' }, {}] as Record<string, string>[]) {
      await recording(`${world.double.origin}${localApiPath}/auth/ksef-token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...errorFormat },
        body: JSON.stringify({ challenge: '20260302-CR-0000000000-0000000000-00', contextIdentifier: { type: 'Nip', value: nip }, encryptedToken: 'AAAA' }),
      });
    }
    // A request without a valid access token, answered 401.
    await recording(`${world.double.origin}${localApiPath}/sessions/${accepted.sessionReferenceNumber}`, { headers: { Authorization: 'Bearer nothing' } });
  });
  afterAll(() => world.close());

  it('serves only paths and methods the document defines, under /v2', () => {
    const routes = createKsefDouble().app.routes.filter((route) => route.method !== 'ALL' && route.path.startsWith(`${localApiPath}/`));
    expect(routes.length).toBeGreaterThanOrEqual(11);
    for (const route of routes) {
      const template = route.path.slice(localApiPath.length).replace(/:([A-Za-z]+)/g, '{$1}');
      expect(document.paths[template]?.[route.method.toLowerCase()], `${route.method} ${template}`).toBeDefined();
    }
  });

  it('checks with validators that do refuse a wrong shape', () => {
    const invoiceStatus = document.paths['/sessions/{referenceNumber}/invoices/{invoiceReferenceNumber}']!['get']!.responses['200']!.content!['application/json']!.schema;
    expect(validatorOf(invoiceStatus)({ status: { code: 200, description: 'Sukces' } })).toBe(false);
    expect(validatorOf(invoiceStatus)({ ordinalNumber: 1, referenceNumber: '20260302-EE-0000000000-0000000000-00', invoiceHash: sha256Base64('x'), invoicingDate: '2026-03-02T09:30:00Z', ksefNumber: null, status: { code: 200, description: 'Sukces' } })).toBe(true);
  });

  it('took every request body in the documented shape and answered each in the documented status, type and shape', () => {
    expect(exchanges.length).toBeGreaterThan(20);
    const statuses = new Set<number>();
    for (const exchange of exchanges) {
      const label = `${exchange.method} ${exchange.path} → ${exchange.status}`;
      const found = operationOf(exchange.method, exchange.path);
      expect(found, label).toBeDefined();
      const { operation } = found!;
      const requestSchema = operation.requestBody?.content['application/json']?.schema;
      if (requestSchema) {
        const validate = validatorOf(requestSchema);
        expect(validate(exchange.requestBody) ? [] : validate.errors, `${label} request`).toEqual([]);
      }
      const response = operation.responses[String(exchange.status)];
      expect(response, label).toBeDefined();
      statuses.add(exchange.status);
      if (exchange.status === 204) continue;
      const content = response!.content?.[exchange.contentType];
      expect(content, `${label} as ${exchange.contentType}`).toBeDefined();
      if (exchange.contentType.endsWith('json')) {
        const validate = validatorOf(content!.schema);
        expect(validate(JSON.parse(exchange.body)) ? [] : validate.errors, label).toEqual([]);
      }
      if (exchange.status === 429) expect(exchange.headers.get('retry-after')).toBe('2');
      if (exchange.path.endsWith('/upo')) expect(exchange.headers.get('x-ms-meta-hash')).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    }
    expect([...statuses].sort()).toEqual([200, 201, 202, 204, 400, 401, 429]);
  });

  it('answers invoice statuses from the document’s table: 200, 440 with the original number, 450', () => {
    const statuses = exchanges
      .filter((exchange) => /^\/sessions\/[^/]+\/invoices\/[^/]+$/.test(exchange.path) && exchange.status === 200)
      .map((exchange) => (JSON.parse(exchange.body) as { status: { code: number; extensions?: Record<string, string> } }).status);
    expect(statuses.map((status) => status.code)).toEqual([200, 440, 450]);
    expect(statuses[1]?.extensions?.originalKsefNumber).toMatch(/^5265877635-20260302-/);
  });
});
