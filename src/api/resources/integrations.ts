import {
  accountInfo,
  accountResult,
  loginResult,
  userResult,
  type AccountInfo,
  type AccountResult,
  type LoginResult,
  type UserResult,
} from '../schemas/account.js';
import type { CallOptions, Transport } from '../transport.js';

export interface NewUser {
  email: string;
  password: string;
  login?: string;
}

export interface Credentials {
  login: string;
  password: string;
}

export interface NewAccount {
  account: { prefix: string };
  /** The owner: `login`, `email`, `password`, `from_partner` (partner code). */
  user?: { login?: string; email: string; password: string; from_partner?: string };
  company?: {
    name?: string;
    tax_no?: string;
    post_code?: string;
    city?: string;
    street?: string;
    person?: string;
    bank?: string;
    bank_account?: string;
  };
}

export interface IntegrationsApi {
  /** Adds a user to the account (`POST {appUrl}/users.json`). */
  addUser(user: NewUser, options?: CallOptions): Promise<UserResult>;
  /** A user's data including the account's `api_token` (`POST {appUrl}/login.json`). */
  login(credentials: Credentials, options?: CallOptions): Promise<LoginResult>;
  /** Creates an account; a taken prefix gets a free variant, so read `prefix` from the answer. */
  createAccount(input: NewAccount, options?: CallOptions): Promise<AccountResult>;
  /** The account that the api_token belongs to (`GET /account.json`). */
  getAccount(options?: CallOptions): Promise<AccountInfo>;
}

/**
 * The integration operations of spec §4.8. They carry the `integration_token` (in the body of a
 * POST, in the query of the GET) and speak JSON whatever the client's format, as §4.8 defines them.
 */
export function integrationsApi(transport: Transport): IntegrationsApi {
  return {
    addUser: async (user, options) =>
      transport.request(
        { method: 'POST', host: 'app', path: 'users', format: 'json', body: { user }, integrationToken: true },
        userResult,
        options,
      ),
    login: async (credentials, options) =>
      transport.request(
        { method: 'POST', host: 'app', path: 'login', format: 'json', body: { ...credentials }, apiToken: false, integrationToken: true },
        loginResult,
        options,
      ),
    createAccount: async (input, options) =>
      transport.request(
        { method: 'POST', host: 'app', path: 'account', format: 'json', body: { ...input }, integrationToken: true },
        accountResult,
        options,
      ),
    getAccount: async (options) =>
      transport.request({ method: 'GET', path: 'account', format: 'json', integrationToken: true }, accountInfo, options),
  };
}
