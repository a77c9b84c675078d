import type { CustomerTotals, PortalListQuery as PortalListRequest } from '../contract/portal.js';
import type { CustomerInvoiceSource } from './views.js';

/** A query of the list as the route validated it: `totals` decided. */
export type PortalListQuery = PortalListRequest & {
  /** False for the following pages of a list already counted: no count, no totals. */
  totals: boolean;
};

/** A page of the list and what the counts need, however the service gave them. */
export interface ListRead {
  invoices: CustomerInvoiceSource[];
  total?: number;
  totals?: CustomerTotals[];
}
