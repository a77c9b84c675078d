import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { Account } from './account.js';
import { ApiError } from './api-error.js';
import type { Format, ServiceConfig, ServiceContext, ServiceEnv } from './context.js';
import { invalid, invalidField, NotFoundError, notFound, Problems, ValidationError } from './domain-errors.js';
import { MAX_ID } from '../api/schemas/common.js';
import { assertPlainInput, parseJsonInput, RESERVED_KEYS, reservedKeyError, UnsafeInputError } from '../kernel/json-input.js';
import { textProblems } from '../kernel/validation/text.js';
import { parseXml, toXml, XmlInputError } from './xml.js';

export type { Account, Format, ServiceConfig, ServiceContext, ServiceEnv };
export { ApiError };

export const unauthorized = () => new ApiError(401, 'You must be logged in to gain access to the site');
export { invalid, invalidField, notFound };

/** The answer for an error the HTTP layer or the domain threw on purpose; `undefined` for any other. */
export function apiErrorOf(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof ValidationError) return new ApiError(422, error.message, error.fields);
  if (error instanceof NotFoundError) return new ApiError(404, error.message);
  return undefined;
}

const EXTENSIONS: Record<string, Format> = { json: 'json', xml: 'xml', pdf: 'pdf', js: 'js', html: 'html' };

/** Splits `/invoices/12.json` into the route path `/invoices/12` and its format. */
export function splitExtension(pathname: string): { path: string; format: Format | undefined } {
  const match = /\.([a-z]+)$/i.exec(pathname);
  const format = match ? EXTENSIONS[match[1]!.toLowerCase()] : undefined;
  return format ? { path: pathname.slice(0, -match![0].length), format } : { path: pathname, format: undefined };
}

/** Hono `getPath`: routes are written without the extension. */
export function routePath(request: Request): string {
  const url = new URL(request.url);
  let path = url.pathname;
  try {
    path = decodeURI(path);
  } catch {
    // a malformed escape stays as sent and simply matches no route
  }
  return splitExtension(path).path.replace(/\/+$/, '') || '/';
}

function formatOf(c: Context): Format {
  const { format } = splitExtension(new URL(c.req.url).pathname);
  if (format) return format;
  const accept = c.req.header('accept') ?? '';
  const type = c.req.header('content-type') ?? '';
  return /xml/.test(accept) || (!/json/.test(accept) && /xml/.test(type)) ? 'xml' : 'json';
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Blob);

/** Objects keyed `0`, `1`, … (from `positions[0][name]` or `positions[][name]`) become arrays. */
function indexedToArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(indexedToArrays);
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((key) => /^\d{1,4}$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => indexedToArrays(value[key]));
  }
  const result: Record<string, unknown> = Object.create(null);
  for (const key of keys) result[key] = indexedToArrays(value[key]);
  return result;
}

/**
 * Fields of a form body, named as Rails forms name them, become nested values:
 * `department[logo]` an object, `invoice[positions][][name]` (repeated) or
 * `invoice[positions][0][name]` an array of objects. Every object is built without a prototype and
 * a reserved name (`__proto__[x]`, `a[constructor][prototype]`) is refused before anything is
 * assigned, so no field name can reach `Object.prototype`.
 */
export function nestFormFields(fields: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = Object.create(null);
  for (const [key, raw] of Object.entries(fields)) {
    const parts = key.replace(/\]/g, '').split('[');
    const reserved = parts.find((part) => RESERVED_KEYS.has(part));
    if (reserved !== undefined) throw reservedKeyError(reserved);
    if (parts[0] === '' || parts.length > 12) continue;
    const values = Array.isArray(raw) && parts.includes('') ? raw : [raw];
    values.forEach((value, index) => {
      let target = result;
      const path = parts.map((part) => (part === '' ? String(index) : part));
      path.forEach((part, depth) => {
        if (depth === path.length - 1) {
          target[part] = Array.isArray(value) ? value.at(-1) : value;
        } else {
          const next = Object.hasOwn(target, part) ? target[part] : undefined;
          target = (isPlainObject(next) ? next : (target[part] = Object.create(null))) as Record<string, unknown>;
        }
      });
    });
  }
  return indexedToArrays(result) as Record<string, unknown>;
}

/**
 * The body in any format (form, multipart, JSON, XML), read so that it cannot reach a prototype:
 * reserved field names and bodies nested deeper than `MAX_BODY_DEPTH` are a 400.
 */
async function readBody(c: Context): Promise<Record<string, unknown>> {
  try {
    const body = await parseBodyOf(c);
    assertPlainInput(body);
    return body;
  } catch (error) {
    if (error instanceof UnsafeInputError) throw new ApiError(400, error.reason === 'syntax' ? 'The request body is not valid JSON' : error.message);
    throw error;
  }
}

/** Most fields a form body may have: nesting them costs time with each (an invoice of 400 positions has about 4,000). */
const MAX_FORM_FIELDS = 10_000;

async function parseBodyOf(c: Context): Promise<Record<string, unknown>> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      throw new ApiError(400, 'The form body could not be read');
    }
    // Repeated names (and names ending in `[]`) collect every value, in order.
    const fields: Record<string, unknown> = Object.create(null);
    let count = 0;
    form.forEach(() => (count += 1));
    if (count > MAX_FORM_FIELDS) throw new ApiError(400, `The form has more than ${MAX_FORM_FIELDS} fields`);
    form.forEach((value, key) => {
      const seen = fields[key];
      if (Array.isArray(seen)) seen.push(value);
      else if (seen !== undefined) fields[key] = [seen, value];
      else fields[key] = key.endsWith('[]') ? [value] : value;
    });
    return nestFormFields(fields);
  }
  const text = await c.req.text();
  if (text.trim() === '') return {};
  const looksXml = /xml/.test(type) || (!/json/.test(type) && text.trimStart().startsWith('<'));
  if (looksXml) {
    try {
      return parseXml(text);
    } catch (error) {
      throw new ApiError(400, error instanceof XmlInputError ? error.message : 'malformed XML');
    }
  }
  const parsed = parseJsonInput(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError(400, 'The request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/**
 * Text PostgreSQL, XML and KSeF can all carry (`kernel/validation/text.ts`): a NUL, another control
 * character, U+FFFE, U+FFFF or an unpaired surrogate is refused, naming its field.
 */
function storableText(value: unknown, path: string[]): unknown {
  // The wrapper key is not part of a field's name: `client.name` is reported as `name`.
  const problems = textProblems(value, path);
  if (problems.size === 0) return value;
  const fields: Record<string, string[]> = {};
  for (const [at, problem] of problems) fields[at.split('.').slice(at.includes('.') ? 1 : 0).join('.')] = [problem];
  throw invalid(fields);
}

/** Sets `format` and, for requests with a body, the parsed `body`. */
export const parseRequest: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  c.set('format', formatOf(c));
  // No record's id, token or prefix holds a NUL character: a path with one names nothing.
  if (c.req.path.includes('\u0000') || /%00/.test(c.req.path)) throw new ApiError(404, 'Not found');
  for (const [key, values] of Object.entries(c.req.queries())) {
    if (values.some((value) => value.includes('\u0000'))) throw invalidField(key, 'must not contain NUL characters');
  }
  const body = c.req.method === 'GET' || c.req.method === 'HEAD' ? {} : await readBody(c);
  c.set('body', storableText(body, []) as Record<string, unknown>);
  await next();
};

export const MiB = 1024 * 1024;

/**
 * A group's (or a route's) body reader: the body, up to `limit` bytes (a larger one is the
 * reference's 413), parsed by `parseRequest` once `allowed` lets it through. A request's body is read
 * once, by the first reader on its way: a route that takes files puts its own reader ahead of its group's.
 */
export function readsBody(limit = MiB, allowed?: MiddlewareHandler<ServiceEnv>): MiddlewareHandler<ServiceEnv> {
  const limited = bodyLimit({
    maxSize: limit,
    onError: (c) => errorResponse(c, new ApiError(413, `The request body is larger than ${limit >= MiB ? `${limit / MiB} MiB` : `${limit / 1024} KiB`}`)),
  });
  return async (c, next) => {
    if (c.get('format') !== undefined) return next();
    return limited(c, async () => {
      // A body declared larger than the limit is a 413 before anything else; then `allowed` (the
      // account's credentials) decides whether the body is read at all.
      if (allowed) {
        await allowed(c, async () => {
          await parseRequest(c, next);
        });
      } else await parseRequest(c, next);
    });
  };
}

/**
 * Answers in the request's format: JSON, or XML under `root`. The body goes out as UTF-8 bytes:
 * Node writes a long string with non-ASCII letters (any Polish name) much more slowly than the same
 * bytes, about 0.3 ms more CPU for a list of 25 invoices (80 KB).
 */
// Declared as a plain Response: the inferred type names Node's Buffer, which a project without @types/node cannot read.
export function respond(c: ServiceContext, value: unknown, options: { status?: 200 | 201; root?: string } = {}): Response {
  const status = options.status ?? 200;
  if (c.get('format') === 'xml') {
    return c.body(Buffer.from(toXml(options.root ?? (Array.isArray(value) ? 'objects' : 'object'), value)), status, {
      'content-type': 'application/xml; charset=utf-8',
    });
  }
  return c.body(Buffer.from(JSON.stringify(value) ?? ''), status, { 'content-type': 'application/json' });
}

export function errorResponse(c: Context, error: ApiError): Response {
  const format = (c.get('format') as Format | undefined) ?? formatOf(c);
  // A 413 is answered before the body has been read: the connection ends with it, so no client
  // sends its next request on a socket that still carries the rest of this body.
  if (error.status === 413) c.header('connection', 'close');
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  if (format === 'xml') {
    const message = error.fields
      ? Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [k.replace(/[^A-Za-z0-9_]/g, '_'), v.join('; ')]))
      : error.message;
    return c.body(toXml('error', { code: error.code, message }), error.status, {
      'content-type': 'application/xml; charset=utf-8',
    });
  }
  return c.json(error.body, error.status);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Turns zod issues into the reference's field map: `{"buyer_name":["can't be blank"]}`. A field that
 * was not sent (or sent as null) is blank; one of the wrong type says what it must be, in the
 * schema's own words where it has them.
 */
export function fieldsOf(error: z.ZodError, input: unknown, prefix = ''): Record<string, string[]> {
  const problems = new Problems();
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'base';
    let message = issue.message;
    if (issue.code === 'invalid_type') {
      if (valueAt(input, issue.path) == null) message = "can't be blank";
      else if (message.startsWith('Invalid input')) {
        message = `must be ${issue.expected === 'object' ? 'an object' : issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}`;
      }
    }
    problems.add(path, message);
  }
  return problems.fields;
}

/** Validates `input` with `schema`, or throws 422 naming every bad field under `prefix`. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalid(fieldsOf(result.error, input, prefix));
  return result.data;
}

/** The resource object of a body: `body.invoice`, or the body itself when a client sent it bare. */
export function wrapped(c: ServiceContext, key: string): unknown {
  const body = c.get('body');
  const value = Object.hasOwn(body, key) ? body[key] : undefined;
  if (value === undefined) throw invalidField(key, "can't be blank");
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidField(key, 'must be an object');
  return value;
}

/**
 * Query parameters as a plain object (the last value wins, as in Rails); a Rails array
 * (`kinds[]=vat&kinds[]=proforma`) becomes a list under its bare name (`kinds`).
 */
export function queryOf(c: ServiceContext): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = c.req.query();
  for (const [key, values] of Object.entries(c.req.queries())) {
    if (key.endsWith('[]') && key.length > 2) query[key.slice(0, -2)] = values;
  }
  return query;
}

export function idParam(c: ServiceContext, name = 'id'): number {
  const raw = c.req.param(name) ?? '';
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  // Ids are 32-bit in storage: a larger one names no record.
  if (!Number.isSafeInteger(id) || id <= 0 || id > MAX_ID) throw notFound();
  return id;
}

/**
 * A request body whose first chunks were read already (to find a token or an upload key before the
 * rest is allowed): those chunks again, then the rest as it comes.
 */
export function replayedBody(head: readonly Uint8Array[], done: boolean, reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of head) controller.enqueue(chunk);
      if (done) controller.close();
    },
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
