/** Starting the invoicing service from code: `import { startService } from 'invoicekit/service'`. */
export { startService, DEMO_PREFIX, type RunningService, type ServiceOptions } from './server.js';
export { createServiceApp, type ServiceAppOptions } from './app.js';
export { openDatabase, type Database, type DatabaseOptions } from './db.js';
export { migrate } from './migrations.js';
export { webhookRowHooks } from './webhooks/deliveries.js';
export type { RowHooks } from './store.js';
