/**
 * The platform's one phone-number rule.
 *
 * A phone number is an E.164 number written as its digits without `+` (what Meta's Cloud API takes
 * as `to` and answers as `wa_id`): a country calling code and a national number, at most 15 digits.
 * The contract takes numbers in two shapes, and each operation fixes its own bounds (the answers
 * it gives are part of the contract, so they stay as they are):
 *
 * - split: `countryCode` (1–3 digits) + `toPhoneNumber` (4–14 digits, a national number whose
 *   leading zeros are a trunk prefix, dropped), the whole at most 15 digits;
 * - whole: one field with the country code, 6, 7 or 8 to 15 digits by operation (`phoneDigitBounds`).
 *
 * This file holds the bounds, the digit alphabet and the trunk rule; `phone-rule.ts` builds the
 * valibot schemas from them and `international-number.ts` reads numbers as people write them
 * (libphonenumber-js). Nothing here judges whether a number is assigned: the contract accepts any
 * digits within bounds, and refusing `91 12345` as "not a valid Indian number" would answer
 * differently for requests it accepts today.
 */

declare const phoneNumberBrand: unique symbol;

/** E.164 digits without `+`, 1 to 15 of them: only `asPhoneNumber` and `phoneNumberOfParts` make one. */
export type PhoneNumber = string & { readonly [phoneNumberBrand]: 'PhoneNumber' };

export interface DigitBounds {
  readonly min: number;
  readonly max: number;
}

/** E.164: at most 15 digits with the country code. */
export const E164_MAX_DIGITS = 15;

/** Each operation's bounds on a number's digits; the answers of the contract fix them. */
export const phoneDigitBounds = {
  /** `countryCode` of a split number: E.164 calling codes have 1 to 3 digits. */
  countryCode: { min: 1, max: 3 },
  /** `toPhoneNumber` of a split number (template broadcast, earlier sends). */
  nationalNumber: { min: 4, max: 14 },
  /** A sender as the broadcast API names it (`fromPhoneNumber`, the template list's `phone_number`). */
  sender: { min: 6, max: 15 },
  /** The `/upstream` bulk send's `to`, as its answers have always allowed. */
  upstreamRecipient: { min: 6, max: 15 },
  /** The free-form message's `toPhoneNumber` (the whole number). */
  freeformRecipient: { min: 7, max: 15 },
  /**
   * A whole number naming an account or a person (generate-key, sender numbers operators add,
   * bound keys, v1 contacts, conversations and opt-outs): anything under 8 digits cannot be one.
   */
  international: { min: 8, max: E164_MAX_DIGITS },
  /** Any E.164 number (the rate limiter's per-number buckets). */
  e164: { min: 1, max: E164_MAX_DIGITS },
} as const satisfies Record<string, DigitBounds>;

/** The rule of a split number's whole length, worded as the template broadcast answers it (after `data[i] `). */
export const SPLIT_NUMBER_LENGTH_RULE = `countryCode and toPhoneNumber together must have at most ${E164_MAX_DIGITS} digits`;

/**
 * Whether `value` is a string of ASCII digits (no `+`, spaces or full-width digits) of a length
 * within `bounds`. A loop rather than a regular expression: the accept path runs it for each of
 * up to 10,000 recipients.
 *
 * @example
 * hasDigitsWithin('447700900123', phoneDigitBounds.international); // true
 * hasDigitsWithin('+447700900123', phoneDigitBounds.international); // false
 */
export function hasDigitsWithin(value: unknown, bounds: DigitBounds): value is string {
  if (typeof value !== 'string' || value.length < bounds.min || value.length > bounds.max) return false;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/**
 * The whole number of a split one: `countryCode` then `toPhoneNumber` without its leading zeros
 * (a trunk prefix such as the UK's 0 is not dialled from abroad). Numbers compare by it
 * (duplicates, opt-outs, reach) and are sent to it. Not checked for length: see `phoneNumberOfParts`.
 *
 * @example
 * internationalNumberOf('44', '07700900123'); // '447700900123'
 */
export function internationalNumberOf(countryCode: string, nationalNumber: string): string {
  return countryCode + (nationalNumber.charCodeAt(0) === 0x30 /* 0 */ ? nationalNumber.replace(/^0+/, '') : nationalNumber);
}

/**
 * `digits` as a PhoneNumber when it is 1 to 15 ASCII digits, else undefined.
 *
 * @example
 * asPhoneNumber('447700900123'); // '447700900123' (branded)
 * asPhoneNumber('4477009001234567'); // undefined: 16 digits
 */
export function asPhoneNumber(digits: string): PhoneNumber | undefined {
  return hasDigitsWithin(digits, phoneDigitBounds.e164) ? (digits as PhoneNumber) : undefined;
}

/**
 * The PhoneNumber of a split number whose parts are digits (the schema checked each part), or
 * undefined when the whole is longer than E.164 allows.
 *
 * @example
 * phoneNumberOfParts('91', '09876543210'); // '919876543210'
 * phoneNumberOfParts('971', '12345678901234'); // undefined: 17 digits
 */
export function phoneNumberOfParts(countryCode: string, nationalNumber: string): PhoneNumber | undefined {
  return asPhoneNumber(internationalNumberOf(countryCode, nationalNumber));
}

/**
 * Whether a split number, its national part already without trunk zeros, fits the split rule:
 * both parts digits within their bounds and the whole within E.164 (how the earlier send-single
 * and send-bulk judge each recipient: a failure is a partial failure, not a refused request).
 *
 * @example
 * isSplitNumber('91', '9876543210'); // true
 * isSplitNumber('+91', '9876543210'); // false
 */
export function isSplitNumber(countryCode: string, nationalNumber: string): boolean {
  return (
    hasDigitsWithin(countryCode, phoneDigitBounds.countryCode) &&
    hasDigitsWithin(nationalNumber, phoneDigitBounds.nationalNumber) &&
    countryCode.length + nationalNumber.length <= E164_MAX_DIGITS
  );
}

/**
 * The number as E.164 writes it, with `+`.
 *
 * @example
 * e164Of(asPhoneNumber('447700900123')!); // '+447700900123'
 */
export function e164Of(phoneNumber: PhoneNumber): string {
  return `+${phoneNumber}`;
}
