/** Resolves after `ms` milliseconds. */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits, looking every 50 ms, until `done` holds or `ms` have passed: a play function ends on the
 * state its story is named for, after the stand-in's answers and the retries a busy one gets.
 */
export async function until(done: () => boolean, ms = 10_000): Promise<void> {
  for (let waited = 0; waited < ms && !done(); waited += 50) await pause(50);
}
