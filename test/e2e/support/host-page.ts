import type { Server } from 'node:http';
import type { Browser } from 'playwright-core';
import type { Service } from '../../bff/support.js';

/** Ends what a host-page test started: the browser, the page's server (its open connections too) and the service. */
export async function stopHostPage(parts: { browser?: Browser; server?: Server; service?: Service }): Promise<void> {
  await parts.browser?.close();
  parts.server?.closeAllConnections();
  parts.server?.close();
  await parts.service?.stop();
}
