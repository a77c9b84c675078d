/** One structured log line. Paths are logged without their query; headers and bodies never. */
export interface BffLogEntry {
  level: 'info' | 'warn' | 'error';
  msg: string;
  time: string;
  request_id?: string;
  method?: string;
  path?: string;
  status?: number;
  duration_ms?: number;
  client_id?: number;
  code?: string;
  error?: string;
  [key: string]: unknown;
}

export type BffLogger = (entry: BffLogEntry) => void;

export const jsonLineLogger: BffLogger = (entry) => {
  console.log(JSON.stringify(entry));
};

/**
 * Wraps a logger so no line can carry a secret, whatever a caller put in it: every string value
 * holding one of the secrets has it replaced. The BFF never puts secrets in log lines; this is the
 * second lock on the door.
 */
export function redactingLogger(logger: BffLogger, secrets: readonly string[]): BffLogger {
  const needles = secrets.filter((s) => s.length >= 8);
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') {
      let out = value;
      for (const needle of needles) out = out.split(needle).join('[redacted]');
      return out;
    }
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, scrub(v)]));
    }
    return value;
  };
  return (entry) => logger(scrub(entry) as BffLogEntry);
}
