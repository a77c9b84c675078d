import * as z from 'zod';
import { booleanInput } from './common.js';

/** KSeF environments an account can choose (`off` sends nothing; `local` is the bundled test KSeF). */
export const KSEF_ENVIRONMENTS = ['off', 'local', 'test', 'demo', 'production'] as const;
export type KsefEnvironmentSetting = (typeof KSEF_ENVIRONMENTS)[number];

/** `auto_send_mode`: which invoices go to KSeF without being asked (null: only when asked). */
export const KSEF_AUTO_SEND_MODES = ['pl_companies', 'all_companies', 'all'] as const;
export type KsefAutoSendMode = (typeof KSEF_AUTO_SEND_MODES)[number];

/** The fields of `PUT /account/ksef.json` (inside `ksef`); each one left out is kept. */
export const ksefSettingsInput = z.object({
  environment: z.enum(KSEF_ENVIRONMENTS, { message: `must be one of ${KSEF_ENVIRONMENTS.join(', ')}` }).optional(),
  /** The KSeF token the seller generated for the service. Write-only; an empty string or null removes it. */
  token: z.string().max(1000, 'is too long (maximum is 1000 characters)').nullish(),
  auto_send_mode: z.enum(KSEF_AUTO_SEND_MODES, { message: `must be null or one of ${KSEF_AUTO_SEND_MODES.join(', ')}` }).nullish(),
  /** On (the default): an invoice KSeF would refuse is not saved (422). Off: saved with `gov_error_messages`. */
  validate_invoices_for_gov: booleanInput.optional(),
  /**
   * The seller's KSeF certificate of the Offline kind (PEM), which signs KOD II on invoices issued
   * offline. Given with `offline_private_key`; an empty string or null removes both.
   */
  offline_certificate: z.string().max(20_000, 'is too long (maximum is 20000 characters)').nullish(),
  /** The certificate's private key (PEM, unencrypted): RSA of 2048 bits or more, or EC P-256. Write-only. */
  offline_private_key: z.string().max(20_000, 'is too long (maximum is 20000 characters)').nullish(),
});
export type KsefSettingsInput = z.input<typeof ksefSettingsInput>;

/** Body of `PUT /account/ksef.json`. */
export const ksefSettingsBody = z.object({ ksef: ksefSettingsInput });

/** Answer of `GET/PUT /account/ksef.json`: the token only as whether one is set. */
export const ksefSettings = z.object({
  ksef: z.object({
    environment: z.enum(KSEF_ENVIRONMENTS),
    token_set: z.boolean(),
    auto_send_mode: z.enum(KSEF_AUTO_SEND_MODES).nullable(),
    validate_invoices_for_gov: z.boolean(),
    /** Whether an Offline certificate (with its key) is set; the key itself is never answered. */
    offline_certificate_set: z.boolean(),
    /** The Offline certificate as read from it, or null. */
    offline_certificate: z
      .object({
        serial_number: z.string(),
        /** ISO 8601. */
        valid_from: z.string(),
        valid_to: z.string(),
        key_type: z.enum(['rsa', 'ec']),
      })
      .nullable(),
  }),
});
export type KsefSettingsAnswer = z.infer<typeof ksefSettings>;
