/**
 * How a stand-in misbehaves on request: answer an outage in the register's own shape, or hold every
 * request until released (so a test can prove a timeout without sleeping on our side of it).
 */
export type Failure =
  | { kind: 'answer'; status: number; body: string; contentType?: string; headers?: Record<string, string> }
  | { kind: 'stall' };

export interface FailureSwitch {
  /** Every request fails this way until `recover()`. */
  fail(failure: Failure): void;
  /** Answers normally again, and lets held requests go (with a 503). */
  recover(): void;
  /** How many requests are being held now. */
  held(): number;
}

export function failing(): { answer(): Promise<Response | undefined>; switch: FailureSwitch } {
  let current: Failure | undefined;
  const waiting = new Set<() => void>();
  return {
    async answer() {
      const failure = current;
      if (!failure) return undefined;
      if (failure.kind === 'stall') {
        await new Promise<void>((resolve) => waiting.add(resolve));
        return new Response('held', { status: 503 });
      }
      return new Response(failure.body, { status: failure.status, headers: { 'content-type': failure.contentType ?? 'application/json', ...failure.headers } });
    },
    switch: {
      fail(failure) {
        current = failure;
      },
      recover() {
        current = undefined;
        for (const release of waiting) release();
        waiting.clear();
      },
      held: () => waiting.size,
    },
  };
}
