import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKsefClient, type KsefClientOptions } from '../../../src/service/ksef/client.js';
import { startKsefDouble, type RunningKsefDouble } from '../../../src/service/ksef/double/server.js';

const template = readFileSync(new URL('./data/invoice-template-fa3.xml', import.meta.url), 'utf8');

/** The Ministry's FA(3) example with its placeholders filled in. */
export function exampleInvoice(nip: string, issueDate: string, number: string): string {
  return template.replaceAll('#nip#', nip).replaceAll('#invoicing_date#', issueDate).replaceAll('#invoice_number#', number);
}

/** A clock tests move by hand. */
export function testClock(start: string): { now: () => Date; set: (iso: string) => void } {
  let current = new Date(start);
  return { now: () => new Date(current), set: (iso) => (current = new Date(iso)) };
}

export interface DoubleWorld {
  readonly double: RunningKsefDouble;
  /** Every wait the client asked for, in milliseconds; the waits themselves return at once. */
  readonly sleeps: number[];
  readonly client: ReturnType<typeof createKsefClient>;
  readonly dir: string;
  close(): Promise<void>;
}

/** The double on an ephemeral port with its state in a temp dir, and a client whose waits are recorded. */
export async function startDoubleWorld(clock: () => Date, extra: Partial<KsefClientOptions> = {}): Promise<DoubleWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'ksef-double-'));
  const double = await startKsefDouble({ stateFile: join(dir, 'ksef.json'), clock });
  const sleeps: number[] = [];
  const client = createKsefClient({
    localOrigin: double.origin,
    clock,
    random: () => 0,
    sleep: async (ms) => void sleeps.push(ms),
    ...extra,
  });
  return {
    double,
    sleeps,
    client,
    dir,
    async close() {
      await double.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
