import * as z from 'zod';
import { booleanInput, decimalInput, decimalString, optionalId, optionalText } from './common.js';

/** A note of an invoice (`descriptions`): created with it, changed by `id`, removed with `_destroy: 1`. */
export const descriptionInput = z.object({
  id: optionalId,
  _destroy: booleanInput.optional(),
  title: optionalText(300),
  content: optionalText(10000),
});

/** A settlement line shown under the positions (a charge or a deduction); it changes no total. */
export const settlementPositionInput = z.object({
  id: optionalId,
  _destroy: booleanInput.optional(),
  kind: z.enum(['charge', 'deduction'], { message: 'must be charge or deduction' }).nullish(),
  description: optionalText(1000),
  amount: decimalInput.nullish(),
});

const s = z.string().nullable();

export const description = z.looseObject({ id: z.number(), title: s, content: s });
export const settlementPosition = z.looseObject({ id: z.number(), kind: z.string(), description: s, amount: decimalString });
