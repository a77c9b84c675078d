import * as z from 'zod';
import { booleanInput, optionalText, textInput } from './common.js';

/** `POST /account/add_user`: a user joins the account (`invite: false` creates them with a password). */
export const accountAddUserInput = z.object({
  integration_token: z.string().optional(),
  user: z.object({
    invite: booleanInput.nullish(),
    email: textInput(300).pipe(z.email({ message: 'is not an e-mail address' })),
    password: z.string({ message: 'must be text' }).min(8, 'is too short (minimum is 8 characters)').max(200).nullish(),
    login: optionalText(100),
    role: z.union([z.enum(['member', 'admin', 'accountant']), z.string().regex(/^(role_)?\d{1,9}$/)], {
      message: 'must be member, admin, accountant or a custom role id',
    }).nullish(),
    department_ids: z.array(z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.number().int().positive())).max(1000).nullish(),
    first_name: optionalText(200),
    last_name: optionalText(200),
  }),
});
export type AccountAddUserInput = z.input<typeof accountAddUserInput>;

/** `PATCH /account/unlink`: one prefix or a list of them. */
export const accountUnlinkInput = z.object({
  prefix: z.union([textInput(100), z.array(textInput(100)).min(1).max(1000)], { message: 'must be a prefix or a list of prefixes' }),
});
export type AccountUnlinkInput = z.input<typeof accountUnlinkInput>;

export const accountOperationResult = z.looseObject({
  code: z.enum(['success', 'error']),
  message: z.string(),
  result: z.looseObject({ unlinked: z.array(z.string()).optional(), not_unlinked: z.array(z.string()).optional() }).optional(),
});
export type AccountOperationResult = z.infer<typeof accountOperationResult>;
