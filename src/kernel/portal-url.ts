/**
 * A department's `portal_url`: the host's customer portal, with `{client_id}` where the customer's
 * id goes. The service checks it carries the placeholder; the back office fills it in per customer.
 */

/** Where the customer's id goes in a portal address. */
export const PORTAL_CLIENT_ID = '{client_id}';

/** The portal address of one customer: every `{client_id}` replaced by its id. */
export function portalUrlFor(portalUrl: string, clientId: number): string {
  return portalUrl.split(PORTAL_CLIENT_ID).join(encodeURIComponent(String(clientId)));
}
