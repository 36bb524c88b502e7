/**
 * Who a member is: the one key per person an audience keeps its members under (docs/CAMPAIGNS.md
 * "Members and people"). A number is keyed by its opt-out key (shared/recipients/opt-out-key.ts:
 * a Mexican or Brazilian mobile's two forms are one person); a business-scoped user id (BSUID)
 * alone by its paired number's key when the contact book knows the pair, else by itself; a row
 * giving both by the number, keeping the BSUID.
 */
import type { StoredPair } from '../inbox/contact-book';
import { callingCodeOf } from '../recipients/calling-code';
import { optOutKeyOf } from '../recipients/opt-out-key';
import { internationalNumberOf } from '../recipients/phone-number';

/** What a row or a contact tells of a person: a split number (already checked), a BSUID, or both. */
export interface PersonIdentity {
  phone?: { countryCode: string; toPhoneNumber: string };
  userId?: string;
}

/** A person as a member is keyed and addressed (the identity fields of `MemberUpsert`). */
export interface ResolvedPerson {
  personKey: string;
  /** The number's E.164 digits, else the BSUID. */
  to: string;
  countryCode: string;
  toPhoneNumber: string;
  userId?: string;
  /** The number came from the contact book (a BSUID row): it only fills a member without one. */
  numberFromPair?: true;
}

/**
 * The split form of a full international number: its calling code and the rest (the whole as
 * national part when no calling code is known).
 *
 * @example
 * splitInternationalNumber('447700900123'); // { countryCode: '44', toPhoneNumber: '7700900123' }
 */
export function splitInternationalNumber(digits: string): { countryCode: string; toPhoneNumber: string } {
  const countryCode = callingCodeOf(digits) ?? '';
  return { countryCode, toPhoneNumber: digits.slice(countryCode.length) };
}

/**
 * The person of an identity, given the contact book's pairs of the BSUIDs (`pairsOf`, by BSUID).
 *
 * @example
 * personOf({ phone: { countryCode: '44', toPhoneNumber: '07700900123' }, userId: 'GB.1' }, new Map());
 * // { personKey: '447700900123', to: '447700900123', countryCode: '44', toPhoneNumber: '07700900123', userId: 'GB.1' }
 * personOf({ userId: 'GB.1' }, new Map([['GB.1', { phoneNumber: '447700900123', userId: 'GB.1', at: 'T' }]]));
 * // { personKey: '447700900123', to: '447700900123', countryCode: '44', toPhoneNumber: '7700900123', userId: 'GB.1', numberFromPair: true }
 */
export function personOf(identity: PersonIdentity, pairs: ReadonlyMap<string, StoredPair>): ResolvedPerson {
  const userId = identity.userId === undefined ? {} : { userId: identity.userId };
  if (identity.phone) {
    const to = internationalNumberOf(identity.phone.countryCode, identity.phone.toPhoneNumber);
    return { personKey: optOutKeyOf(to), to, ...identity.phone, ...userId };
  }
  const bsuid = identity.userId!;
  const pair = pairs.get(bsuid);
  if (!pair) return { personKey: bsuid, to: bsuid, countryCode: '', toPhoneNumber: '', userId: bsuid };
  return { personKey: optOutKeyOf(pair.phoneNumber), to: pair.phoneNumber, ...splitInternationalNumber(pair.phoneNumber), userId: bsuid, numberFromPair: true };
}

/** The BSUIDs among identities that give no number: the keys to ask the contact book for. */
export const unpairedUserIds = (identities: readonly PersonIdentity[]): string[] => [
  ...new Set(identities.flatMap((identity) => (identity.phone === undefined && identity.userId !== undefined ? [identity.userId] : []))),
];
