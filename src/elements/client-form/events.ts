import type { ClientFormField } from '../../kernel/validation/client.js';
import type { PortalClient } from '../shared/bff-client.js';
export { TokenExpiredEvent, type TokenProvider } from '../shared/token-renewal.js';

/** The form's values: every field as text, and whether the client is a company. */
export type ClientFormValue = Record<ClientFormField, string> & { company: boolean };

export interface ClientChangeEventDetail {
  /** The field the customer changed (`company` for the company / private person choice). */
  readonly field: ClientFormField | 'company';
  readonly value: ClientFormValue;
  /** True while the values differ from the saved client. */
  readonly dirty: boolean;
}

export interface ClientSavedEventDetail {
  /** The client as the BFF saved it. */
  readonly client: PortalClient;
  /** After a sign-up, the portal token the BFF minted for the new client, if it is set up to. */
  readonly portalToken?: string | undefined;
}

export interface ClientErrorEventDetail {
  /** The HTTP status; 0 when the BFF could not be reached. */
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** For a 422, the server's messages by field. */
  readonly fields: Readonly<Record<string, readonly string[]>>;
  /** `load` or `save`. */
  readonly action: 'load' | 'save';
}

abstract class ClientFormEvent<D> extends Event {
  readonly detail: D;
  constructor(type: string, detail: D) {
    super(type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

/** The customer changed a field (typing, choosing, or the browser's autofill). */
export class ClientChangeEvent extends ClientFormEvent<ClientChangeEventDetail> {
  constructor(detail: ClientChangeEventDetail) {
    super('client-change', detail);
  }
}

/** The client was saved (or created, in `mode="create"`). */
export class ClientSavedEvent extends ClientFormEvent<ClientSavedEventDetail> {
  constructor(detail: ClientSavedEventDetail) {
    super('client-saved', detail);
  }
}

/** Loading or saving failed; the form shows why. */
export class ClientErrorEvent extends ClientFormEvent<ClientErrorEventDetail> {
  constructor(detail: ClientErrorEventDetail) {
    super('client-error', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'client-change': ClientChangeEvent;
    'client-saved': ClientSavedEvent;
    'client-error': ClientErrorEvent;
  }
}
