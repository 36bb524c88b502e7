/**
 * The key a WhatsApp user's opt-out is stored and matched under, whichever form of their number
 * it is written in (docs/BROADCAST.md "Opt-outs at send time", "One key per person").
 *
 * A number is usually one user's only form: its E.164 digits are both what a business dials and
 * Meta's `wa_id` (the `from` of an inbound message, the `recipient_id` of a status). In two
 * countries Meta keeps an older form for accounts registered before a numbering change, so a
 * STOP arrives under one form while a broadcast names the other:
 *
 * - Mexico (+52): mobiles were dialled from abroad as 52 1 + 10 digits until 2019; now 52 + 10
 *   digits. Accounts and businesses use either form.
 * - Brazil (+55): mobiles gained a ninth digit (9 before the old 8-digit number, 2012-2016); the
 *   `wa_id` of an account registered before may lack it (55 AA 8765 4321 for 55 AA 9 8765 4321).
 *
 * The key is the form libphonenumber-js's metadata judges valid today: 52 + 10 digits, and the
 * Brazilian mobile with its ninth digit (the unit test checks every Brazilian area code and
 * Mexican samples against libphonenumber-js/max). The rule itself is plain code on the digits: the
 * accept path keys up to 10,000 numbers per request, and libphonenumber-js parses at ~30 µs a
 * number (300 ms a request) where this takes well under one; the calling codes need no parsing
 * (E.164 codes are prefix-free, so a number starting 52 or 55 is Mexican or Brazilian).
 */

import { isBusinessScopedUserId } from './business-scoped-user-id';

/** Brazilian area codes (DDD) are two digits 1-9: 11 to 99, none with a 0. */
const isBrazilianAreaCode = (digits: string, at: number): boolean => digits[at] !== '0' && digits[at + 1] !== '0';

/**
 * Whether `subscriber` starts like a pre-2016 8-digit Brazilian mobile (6, 7, 8 or 9; landlines
 * start 2 to 5 and never had a ninth digit).
 */
const startsLikeOldMobile = (digits: string, at: number): boolean => digits[at]! >= '6' && digits[at]! <= '9';

/**
 * The opt-out key of a number (E.164 digits without `+`): the number itself, except the older
 * Mexican and Brazilian mobile forms, which become today's.
 *
 * @example
 * optOutKeyOf('5215512345678'); // '525512345678' (Mexico: the mobile 1 dropped)
 * optOutKeyOf('558188887777'); // '5581988887777' (Brazil: the ninth digit added)
 * optOutKeyOf('551133334444'); // '551133334444' (a Brazilian landline: unchanged)
 * optOutKeyOf('447700900123'); // '447700900123'
 * optOutKeyOf('US.13491208655302741918'); // 'US.13491208655302741918' (a BSUID is its own key)
 */
export function optOutKeyOf(digits: string): string {
  // A business-scoped user id is keyed as itself; a STOP under one of a user's ids reaches a send to
  // the other because the opt-out is written under both (shared/inbox/identity-pairs.ts).
  if (isBusinessScopedUserId(digits)) return digits;
  if (digits.length === 13 && digits.startsWith('521')) return `52${digits.slice(3)}`;
  if (digits.length === 12 && digits.startsWith('55') && isBrazilianAreaCode(digits, 2) && startsLikeOldMobile(digits, 4)) {
    return `${digits.slice(0, 4)}9${digits.slice(4)}`;
  }
  return digits;
}

/**
 * Every form whose key is the key of `digits`, the key first: what a store that kept numbers as
 * written before the key existed may hold the user's entry under (read them all, write the key).
 *
 * @example
 * optOutKeyFormsOf('525512345678'); // ['525512345678', '5215512345678']
 * optOutKeyFormsOf('558188887777'); // ['5581988887777', '558188887777']
 * optOutKeyFormsOf('447700900123'); // ['447700900123']
 */
export function optOutKeyFormsOf(digits: string): string[] {
  const key = optOutKeyOf(digits);
  if (isBusinessScopedUserId(key)) return [key];
  if (key.length === 12 && key.startsWith('52')) return [key, `521${key.slice(2)}`];
  if (key.length === 13 && key.startsWith('55') && isBrazilianAreaCode(key, 2) && key[4] === '9' && startsLikeOldMobile(key, 5)) {
    return [key, `${key.slice(0, 4)}${key.slice(5)}`];
  }
  return [key];
}
