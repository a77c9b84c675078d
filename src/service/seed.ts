import type { Database } from './db.js';

/** Believable sample data for a new demo account. */
export async function seedDemoAccount(db: Database, prefix: string): Promise<void> {
  void db;
  void prefix;
}
