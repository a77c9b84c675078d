'use client';

import { ClientForm as ClientFormElement } from '../../elements/client-form/define.js';
import { wrap } from './wrap.js';

/** `<ClientForm endpoint="/bff" portalToken={token} onClientSaved={(event) => …} />` */
export const ClientForm = wrap(
  'client-form',
  ClientFormElement,
  {
    onClientChange: 'client-change',
    onClientSaved: 'client-saved',
    onClientError: 'client-error',
    onTokenExpired: 'token-expired',
  },
  // The form draws its fields into its light DOM: React neither hydrates nor replaces them.
  { ownsLightDom: true },
);
