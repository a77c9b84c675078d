import type { RunningService } from '../server.js';
import { ensureDemoOwner } from './users.js';

/**
 * The line a start prints about the back office: its address, and with a seeded demo the owner's
 * sign-in, while the owner's password is still the demo's. This line is the only place it is shown.
 */
export async function backOfficeLine(service: Pick<RunningService, 'url' | 'db' | 'prefix'>, options: { seed: boolean }): Promise<string> {
  const address = `${service.url}/admin/`;
  const owner = options.seed ? await ensureDemoOwner(service.db, service.prefix) : undefined;
  return owner ? `back office on ${address} (sign in as ${owner.login}, password ${owner.password})` : `back office on ${address}`;
}
