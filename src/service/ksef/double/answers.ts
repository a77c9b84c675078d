import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { sha256Base64 } from '../gateway.js';

/** The double's answers in KSeF's own forms: its 400s and 401, a UPO, and what it reads of a request. */

export function upoAnswer(c: Context, upo: string): Response {
  return c.body(upo, 200, { 'Content-Type': 'application/xml', 'x-ms-meta-hash': sha256Base64(upo) });
}

export function bearerOf(c: Context): string | undefined {
  return /^Bearer (.+)$/.exec(c.req.header('Authorization') ?? '')?.[1];
}

export async function jsonBody(c: Context): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await c.req.json();
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** KSeF's 400: Problem Details when asked for (`X-Error-Format: problem-details`), the older ExceptionResponse otherwise. */
export function badRequest(c: Context, code: number, description: string, details?: string[]): Response {
  const timestamp = new Date().toISOString();
  if (c.req.header('X-Error-Format') === 'problem-details') {
    return c.body(
      JSON.stringify({
        title: 'Bad Request',
        status: 400,
        instance: c.req.path,
        detail: description,
        errors: [{ code, description, ...(details ? { details } : {}) }],
        timestamp,
        traceId: randomBytes(8).toString('hex'),
      }),
      400,
      { 'Content-Type': 'application/problem+json' },
    );
  }
  return c.json(
    {
      exception: {
        exceptionDetailList: [{ exceptionCode: code, exceptionDescription: description, ...(details ? { details } : {}) }],
        serviceCode: randomBytes(8).toString('hex'),
        serviceName: 'Local KSeF',
        timestamp,
      },
    },
    400,
  );
}

export function noSession(c: Context): Response {
  return badRequest(c, 21173, 'Brak sesji o wskazanym numerze referencyjnym.', [
    `Sesja o numerze referencyjnym ${c.req.param('referenceNumber') ?? ''} nie została odnaleziona.`,
  ]);
}

export function unknownKey(c: Context, keyId: unknown): Response {
  return badRequest(c, 21470, 'Przesłany identyfikator klucza jest nieznany lub wskazuje na wycofany klucz.', [
    `Klucz o identyfikatorze ${String(keyId)} nie jest wspierany.`,
  ]);
}

export function unauthorized(c: Context): Response {
  return c.body(
    JSON.stringify({ title: 'Unauthorized', status: 401, detail: 'Brak lub nieprawidłowy token dostępu.', timestamp: new Date().toISOString() }),
    401,
    { 'Content-Type': 'application/problem+json' },
  );
}
