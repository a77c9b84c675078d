import { BoundedMap } from '../server-kit/bounded-map.js';

/** Stands for a script among the writes of a transaction: it may write any table. */
export const ANY_TABLE = '*';
/** Removing an account removes every record it owns (`on delete cascade`): a statement naming it may change any table. */
const CASCADES = /\baccounts\b/i;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Values read from a few tables, kept until one of those tables is written: the lookups an invoice
 * creation repeats (the account's main department, its first user, the client of a buyer), which
 * change far less often than invoices are made. Only where one process makes every write (PGlite,
 * whose folder one process owns) does the database see every write, and only there is anything
 * kept; the database tells this class of each statement that may write.
 *
 * A statement writes a table when its text names it (`insert into clients`, `update departments`);
 * one naming `accounts` may write any table, through the cascade of an account's removal, and so
 * may a script. A value is kept only if no write to its tables began while it was read and none is
 * under way in an open transaction (which could still roll back), and it is used only while its
 * tables' write counts stand where they stood. Kept values are frozen: callers share them.
 */
export class KeptReads {
  readonly #tables = new Map<string, { pattern: RegExp; count: number }>();
  /** The write statements of each transaction under way. */
  readonly #open = new Set<string[]>();
  readonly #entries = new BoundedMap<string, { value: unknown; version: number }>();

  /** A statement that may write, outside a transaction: called before it runs and after it ends. */
  written(text: string): void {
    for (const table of this.#tables.values()) if (this.#names(text, table.pattern)) table.count += 1;
  }

  /** A transaction begins: the list it adds each of its write statements to. */
  begin(): string[] {
    const writes: string[] = [];
    this.#open.add(writes);
    return writes;
  }

  /** The transaction whose `writes` these are committed or rolled back: what it wrote has changed. */
  end(writes: string[]): void {
    this.#open.delete(writes);
    for (const text of writes) this.written(text);
  }

  /** The value `read` gives, kept while none of `tables` is written. */
  async get<T>(tables: readonly string[], key: string, read: () => Promise<T>): Promise<T> {
    const fullKey = `${tables.join(',')} ${key}`;
    const version = this.#version(tables);
    const entry = this.#entries.get(fullKey);
    if (entry && version !== undefined && entry.version === version) return entry.value as T;
    const value = deepFreeze(await read());
    if (version !== undefined && this.#version(tables) === version) {
      this.#entries.set(fullKey, { value, version });
    }
    return value;
  }

  #names(text: string, pattern: RegExp): boolean {
    return text === ANY_TABLE || pattern.test(text) || CASCADES.test(text);
  }

  /** The sum of the tables' write counts, or undefined while an open transaction has written one of them. */
  #version(tables: readonly string[]): number | undefined {
    let version = 0;
    for (const name of tables) {
      let table = this.#tables.get(name);
      if (!table) {
        table = { pattern: new RegExp(`\\b${name}\\b`, 'i'), count: 0 };
        this.#tables.set(name, table);
      }
      for (const writes of this.#open) if (writes.some((text) => this.#names(text, table.pattern))) return undefined;
      version += table.count;
    }
    return version;
  }
}
