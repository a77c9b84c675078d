import type { MiddlewareHandler } from 'hono';
import { localApiPath } from '../gateway.js';

/** A failure the double answers instead of the next matching request: KSeF's limits and outages, on demand. */
export interface InjectedFailure {
  readonly status: number;
  /** `Retry-After`, in seconds, for 429. */
  readonly retryAfterSeconds?: number;
  /** Only requests whose path (after `/v2`) starts with this. */
  readonly pathPrefix?: string;
  /** How many requests fail; one by default. */
  times?: number;
}

/**
 * The double's API records every request it answers (method and path) in `requests`, and answers the
 * first injected failure that matches a request instead of the request itself.
 */
export function injectedFailures(failures: InjectedFailure[], requests: string[]): MiddlewareHandler {
  return async (c, next) => {
    requests.push(`${c.req.method} ${c.req.path.slice(localApiPath.length)}`);
    const path = c.req.path.slice(localApiPath.length);
    const index = failures.findIndex((failure) => !failure.pathPrefix || path.startsWith(failure.pathPrefix));
    const failure = failures[index];
    if (failure) {
      failure.times = (failure.times ?? 1) - 1;
      if (failure.times <= 0) failures.splice(index, 1);
      if (failure.status === 429) {
        c.header('Retry-After', String(failure.retryAfterSeconds ?? 1));
        return c.json({ status: { code: 429, description: 'Too Many Requests', details: ['Przekroczono limit żądań.'] } }, 429);
      }
      return c.json({ title: 'Service Unavailable', status: failure.status }, failure.status as 500);
    }
    await next();
  };
}
