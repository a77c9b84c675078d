import { compare, decimal, ZERO } from '../../../kernel/money.js';
import { type PartyIdentity, partyIdentity } from './parties.js';

/**
 * The third parties of an FA(3) invoice (`Podmiot3`): the hosted service's `issuers` (who issues
 * the invoice for the seller: an accounting office, a factor…) and `recipients` (a recipient beside
 * the buyer, a co-buyer with a share, a payer…), each with its role in Polish as the hosted guide
 * names it, written as FA(3)'s `Rola` code or as `RolaInna` with `OpisRoli`.
 */

/** A party as the invoice stores it (`issuers[]`, `recipients[]`). */
export interface ThirdPartyFields {
  readonly name?: string | null;
  readonly first_name?: string | null;
  readonly last_name?: string | null;
  readonly tax_no?: string | null;
  readonly tax_no_kind?: string | null;
  readonly company?: boolean | null;
  readonly country?: string | null;
  readonly street?: string | null;
  readonly post_code?: string | null;
  readonly city?: string | null;
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly role?: string | null;
  readonly role_description?: string | null;
  readonly participation?: string | null;
}

export type ThirdPartySide = 'issuers' | 'recipients';

/** The other role: described in `role_description` (at most 25 characters), written as `RolaInna`. */
export const OTHER_ROLE = 'Rola inna';

/** The roles of each side, in the hosted guide's words, with their `TRolaPodmiotu3` codes. */
export const THIRD_PARTY_ROLES: Record<ThirdPartySide, Readonly<Record<string, number | null>>> = {
  issuers: { 'Wystawca faktury': 5, Faktor: 1, 'Podmiot pierwotny': 3, 'JST – wystawca': 7, 'Członek GV – wystawca': 9, [OTHER_ROLE]: null },
  recipients: {
    Odbiorca: 2,
    'Dodatkowy nabywca': 4,
    'Dokonujący płatności': 6,
    'JST – odbiorca': 8,
    'Członek GV – odbiorca': 10,
    Pracownik: 11,
    [OTHER_ROLE]: null,
  },
};

/** A role given without one is the side's first: `Wystawca faktury`, `Odbiorca`. */
const DEFAULT_ROLE: Record<ThirdPartySide, string> = { issuers: 'Wystawca faktury', recipients: 'Odbiorca' };
const CO_BUYER = 'Dodatkowy nabywca';
export const ROLE_DESCRIPTION_MAX = 25;

/** A role compared loosely: case, spaces and the kind of dash (`JST - odbiorca`) do not matter. */
const comparable = (role: string) => role.toLowerCase().replace(/[\u2010-\u2015-]/g, '–').replace(/\s+/g, ' ').trim();

/** The guide's name of a role as given, or null when the side has no such role. */
export function roleName(side: ThirdPartySide, role: string | null | undefined): string | null {
  if (!role?.trim()) return DEFAULT_ROLE[side];
  const wanted = comparable(role);
  return Object.keys(THIRD_PARTY_ROLES[side]).find((name) => comparable(name) === wanted) ?? null;
}

export interface Podmiot3 {
  readonly identity: PartyIdentity;
  readonly name: string;
  readonly party: ThirdPartyFields;
  /** `Rola`, or null for `RolaInna` with `description`. */
  readonly role: number | null;
  readonly description: string | null;
  readonly share: string | null;
}

const token = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

export function partyName(party: Pick<ThirdPartyFields, 'name' | 'first_name' | 'last_name'>): string {
  return token(party.name) || [party.first_name, party.last_name].map(token).filter(Boolean).join(' ');
}

/** One third party as `Podmiot3`, or the problems of its fields (`recipients.0.role` …). */
export function thirdParty(side: ThirdPartySide, index: number, party: ThirdPartyFields, problems: (field: string, message: string) => void): Podmiot3 | null {
  const field = (name: string) => `${side}.${index}.${name}`;
  let ok = true;
  const fail = (name: string, message: string) => {
    ok = false;
    problems(field(name), message);
  };
  const name = partyName(party);
  if (!name) fail('name', "can't be blank");
  else if (name.length > 512) fail('name', 'is too long (maximum is 512 characters)');
  const role = roleName(side, party.role);
  if (!role) fail('role', `must be one of: ${Object.keys(THIRD_PARTY_ROLES[side]).join(', ')}`);
  const description = token(party.role_description);
  if (role === OTHER_ROLE && !description) fail('role_description', `can't be blank when the role is ${OTHER_ROLE}`);
  if (description.length > ROLE_DESCRIPTION_MAX) fail('role_description', `is too long (maximum is ${ROLE_DESCRIPTION_MAX} characters)`);
  const share = party.participation != null && party.participation !== '' ? decimal(party.participation) : null;
  if (share && role && role !== CO_BUYER) fail('participation', `is only for the role ${CO_BUYER}`);
  if (share && (compare(share, ZERO) < 0 || compare(share, decimal('100')) > 0)) fail('participation', 'must be between 0 and 100');
  if (token(party.phone).length > 16) fail('phone', 'is too long (maximum is 16 characters)');
  if (token(party.email).length > 255) fail('email', 'is too long (maximum is 255 characters)');
  // A third party given without a tax number (a recipient of the goods, a payer) has none (`BrakID`).
  const identity = partyIdentity(token(party.tax_no) || party.tax_no_kind ? party : { ...party, company: false });
  if ('problem' in identity) fail(identity.problem.field, identity.problem.message);
  if (!ok || !role || 'problem' in identity) return null;
  const code = THIRD_PARTY_ROLES[side][role]!;
  return { identity: identity.identity, name, party, role: code, description: code === null ? description : null, share: share ? party.participation! : null };
}

/** Every third party of an invoice, issuers first, in their order. */
export function thirdParties(
  invoice: { readonly issuers?: readonly ThirdPartyFields[] | null; readonly recipients?: readonly ThirdPartyFields[] | null },
  problems: (field: string, message: string) => void,
): Podmiot3[] {
  const sides: ThirdPartySide[] = ['issuers', 'recipients'];
  return sides.flatMap((side) => (invoice[side] ?? []).map((party, index) => thirdParty(side, index, party, problems)).filter((p): p is Podmiot3 => p !== null));
}
