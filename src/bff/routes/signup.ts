import { Hono } from 'hono';
import type { Bff, Env } from '../context.js';
import { issuePortalToken } from '../portal-token.js';
import { CUSTOMER_CLIENT_FIELDS } from '../../contract/portal.js';
import { customerClient } from '../views.js';
import { signupInput } from '../client-input.js';
import { readJson, validate } from '../validation.js';
import type { SignupOptions } from '../options.js';
import type { SignupResult } from '../../contract/portal.js';

/** `POST /clients`: a new customer signs up as a buyer; mounted only when the host enables sign-up. */
export function signupRoutes(bff: Bff, signup: SignupOptions): Hono<Env> {
  const routes = new Hono<Env>();
  routes.post('/clients', async (c) => {
    const input = validate(signupInput, await readJson(c));
    await bff.enforce(c, bff.limits.create, `create:${c.get('clientIp')}`);
    const name = input.name?.trim() || [input.first_name, input.last_name].filter(Boolean).join(' ');
    const created = await bff.service(
      c,
      'clients.create',
      (call) => bff.client.clients.create({ ...input, name, kind: 'buyer', self_service: true }, call),
      CUSTOMER_CLIENT_FIELDS,
    );
    await signup.onCreated?.({ id: created.id, email: created.email, name: created.name });
    const body: SignupResult = { client: customerClient(created) };
    if (signup.portalToken) {
      body.portalToken = await issuePortalToken({ clientId: created.id, ...signup.portalToken }, bff.secretKey);
    }
    c.header('Cache-Control', 'private, no-store');
    return c.json(body, 201);
  });
  return routes;
}
