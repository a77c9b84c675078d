import type { ClientFieldProblem } from './sale.js';

/** The fields of a client that `POST /bff/client-check` checks, as `<client-form>` holds them. */
export const CLIENT_CHECK_FIELDS = ['name', 'tax_no', 'person', 'email', 'phone', 'street', 'post_code', 'city', 'country', 'bank', 'bank_account'] as const;
export type ClientCheckField = (typeof CLIENT_CHECK_FIELDS)[number];

/** What `POST /bff/client-check` is sent: the fields as typed (each optional) and whether the client is a company. */
export type ClientCheckRequest = Partial<Record<ClientCheckField, string>> & { company?: boolean };

/**
 * What `POST /bff/client-check` answers: the problem the client rules (`clientProblems`, which every
 * save and sign-up applies) find with each field, none when `problems` is `{}`; with a post code of the
 * wrong form, an example of the country's (`"00-950"`) for the message to show.
 * `<client-form>` shows these at its fields (docs/decisions/client-form-weight.md).
 */
export interface ClientCheck {
  problems: Partial<Record<ClientCheckField, ClientFieldProblem>>;
  post_code_example?: string;
}
