import { successBody, type SuccessBody } from '../schemas/common.js';
import { accountOperationResult, type AccountAddUserInput, type AccountOperationResult } from '../schemas/account-operations.js';
import { userResult, type UserResult } from '../schemas/account.js';
import { type PaymentSettings, type PaymentSettingsInput, paymentSettingsResult } from '../schemas/payment-settings.js';
import { paymentMethods, type PaymentMethods } from '../schemas/payment.js';
import type { CallOptions, Transport } from '../transport.js';

export interface AccountApi {
  /** Adds a user to the account (`invite: true` for an existing user); carries the integration token. */
  addUser(user: AccountAddUserInput['user'], options?: CallOptions): Promise<UserResult>;
  /** E-mails the account's owner a link that deletes the account when followed. */
  requestDeletion(options?: CallOptions): Promise<SuccessBody>;
  /** Detaches client accounts (by prefix) from this partner account. */
  unlink(prefix: string | string[], options?: CallOptions): Promise<AccountOperationResult>;
  /** The account's payment provider and its public settings (secrets only as `*_set`). */
  paymentSettings(options?: CallOptions): Promise<PaymentSettings>;
  /** Chooses the payment provider and sets its keys; a secret left out keeps the stored one. */
  updatePaymentSettings(payments: PaymentSettingsInput, options?: CallOptions): Promise<PaymentSettings>;
  /** Who takes the account's payments and whether its checkouts take BLIK codes (`GET /account/payment_methods`). */
  paymentMethods(options?: CallOptions): Promise<PaymentMethods>;
}

/** The account operations of the hosted service (`/account/…`). */
export function accountApi(transport: Transport): AccountApi {
  return {
    addUser: async (user, options) =>
      transport.request({ method: 'POST', path: 'account/add_user', format: 'json', body: { user }, integrationToken: true }, userResult, options),
    requestDeletion: async (options) => transport.request({ method: 'POST', path: 'account/delete', format: 'json', body: {} }, successBody, options),
    unlink: async (prefix, options) =>
      transport.request({ method: 'PATCH', path: 'account/unlink', format: 'json', body: { prefix } }, accountOperationResult, options),
    paymentSettings: async (options) =>
      (await transport.request({ method: 'GET', path: 'account/payments', format: 'json' }, paymentSettingsResult, options)).payments,
    updatePaymentSettings: async (payments, options) =>
      (await transport.request({ method: 'PUT', path: 'account/payments', format: 'json', body: { payments } }, paymentSettingsResult, options)).payments,
    paymentMethods: async (options) => transport.request({ method: 'GET', path: 'account/payment_methods', format: 'json' }, paymentMethods, options),
  };
}
