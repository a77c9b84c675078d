/**
 * An answer a test holds back and releases when it chooses, so it can assert what an element shows
 * (or does not do) while waiting, without sleeping: hold, assert, release, assert.
 */
export interface Held<T> {
  /** The load function to hand over: records the signal it was given and waits for the release. */
  take: (signal: AbortSignal) => Promise<T>;
  /** The signal of the call that took it. */
  signal?: AbortSignal;
  release(value: T): void;
  fail(error: unknown): void;
  /**
   * Resolves once the answer or failure, released, has reached everything that took it before this
   * call: a test awaits it to assert that a stale answer was dropped, not merely late.
   */
  delivered(): Promise<void>;
}

export function held<T>(): Held<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const answer = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  const result: Held<T> = {
    take: (signal) => {
      result.signal = signal;
      return answer;
    },
    release: (value) => resolve(value),
    fail: (error) => reject(error),
    delivered: () => answer.then(
      () => undefined,
      () => undefined,
    ),
  };
  return result;
}
