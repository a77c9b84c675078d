import autocannon from 'autocannon';

/**
 * HTTP load from this process, never from the process being measured: autocannon keeps `connections`
 * requests in flight against one address on 127.0.0.1 for a fixed duration.
 */
export interface LoadResult {
  perSecond: number;
  /** Mean and median latency, and the 97.5th percentile, in ms. */
  mean: number;
  p50: number;
  p97: number;
  requests: number;
}

export interface LoadOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  seconds: number;
}

export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body !== undefined ? { body: options.body } : {}),
    connections: options.connections ?? 20,
    duration: options.seconds,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${options.method ?? 'GET'} ${url}: ${bad} of ${result.requests.total + result.errors} requests failed`);
  return {
    perSecond: result['2xx'] / result.duration,
    mean: result.latency.mean,
    p50: result.latency.p50,
    p97: result.latency.p97_5,
    requests: result['2xx'],
  };
}

/** Several loads at once (one per process of a scaled service), summed. */
export async function loadAll(targets: { url: string; options: LoadOptions }[]): Promise<LoadResult> {
  const results = await Promise.all(targets.map((t) => load(t.url, t.options)));
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  return {
    perSecond: results.reduce((sum, r) => sum + r.perSecond, 0),
    mean: results.reduce((sum, r) => sum + r.mean * r.requests, 0) / Math.max(1, requests),
    p50: Math.max(...results.map((r) => r.p50)),
    p97: Math.max(...results.map((r) => r.p97)),
    requests,
  };
}
