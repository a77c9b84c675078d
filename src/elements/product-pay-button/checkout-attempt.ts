/** The checkout attempt's own helpers, which load with the dialog. */

export const randomKey = (): string => crypto.getRandomValues(new Uint32Array(4)).join('-');

/** Two decimal amounts are the same money: `"269.7"` and `"269.70"`. */
export const sameAmount = (a: string, b: string): boolean => {
  const plain = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);
  return plain(a) === plain(b);
};

/** Waits `ms` unless `signal` aborts first, then throws its reason: a quote waits for typing to pause. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}
