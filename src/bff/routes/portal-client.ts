import { Hono } from 'hono';
import type { Bff, Env } from '../context.js';
import { BffError, ERROR_CODES, notFound } from '../errors.js';
import { requireSession } from '../middleware.js';
import { CUSTOMER_CLIENT_FIELDS } from '../../contract/portal.js';
import { customerClient } from '../views.js';
import { customerClientInput } from '../client-input.js';
import { readJson, validate } from '../validation.js';

/** `GET /client` and `PUT /client`: the session's own client record, customer fields only. */
export function portalClientRoutes(bff: Bff): Hono<Env> {
  const routes = new Hono<Env>();

  routes.get('/client', requireSession(bff, 'client:read'), async (c) => {
    const clientId = c.get('session').clientId;
    const record = await bff.service(c, 'clients.get', (call) => bff.client.clients.get(clientId, call));
    if (record.id !== clientId) throw notFound('client');
    c.header('Cache-Control', 'private, no-store');
    return c.json(customerClient(record));
  });

  routes.put('/client', requireSession(bff, 'client:write'), async (c) => {
    const clientId = c.get('session').clientId;
    const changes = validate(customerClientInput, await readJson(c));
    if (changes.name !== undefined && !changes.name) {
      throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { name: ["can't be blank"] } });
    }
    // The customer's own word: marked, so the service never matches other buyers' invoices by it.
    const record = await bff.service(c, 'clients.update', (call) => bff.client.clients.update(clientId, { ...changes, self_service: true }, call), CUSTOMER_CLIENT_FIELDS);
    c.header('Cache-Control', 'private, no-store');
    return c.json(customerClient(record));
  });

  return routes;
}
