/**
 * A full international number as people write it (`+44 7700 900123`, `0044-7700-900123`,
 * `447700900123`), read with libphonenumber-js: its E.164 digits and its country calling code.
 *
 * libphonenumber-js (phone-parsing.ts: its "min" metadata without formats, ~33 KB) is used only to
 * find the calling code, so a separate file: the accept paths, which take digits the contract has
 * already split, import `phone-number.ts` alone and carry none of it. Its judgement of national
 * lengths is not used: the contract accepts any digits within bounds, and its per-field rules
 * decide (phone-rule.ts).
 */
import { parsePhoneNumberWithError, ParseError } from './phone-parsing';
import { E164_MAX_DIGITS, asPhoneNumber, type PhoneNumber } from './phone-number';

export interface InternationalNumber {
  phoneNumber: PhoneNumber;
  /** The country calling code, digits (`44`). */
  countryCode: string;
  /** The digits after the calling code as written (a trunk 0 kept: the split rule drops it). */
  nationalNumber: string;
}

/** Why a written number is not a full international one; each reads after the field's name. */
export const internationalNumberRules = {
  notDigits: 'must be a full international number: digits, optionally a leading + and spaces or hyphens',
  tooLong: `must be at most ${E164_MAX_DIGITS} digits with the country code (E.164)`,
  noCallingCode: 'must start with a country calling code (e.g. +44 7700 900123)',
  nothingAfterCode: 'must have the national number after the country calling code',
} as const;

export type InternationalNumberRule = (typeof internationalNumberRules)[keyof typeof internationalNumberRules];

/** Separators people type inside numbers; a leading `+` or international prefix `00` goes too. */
const SEPARATORS = /[\s\-().]/g;
const INTERNATIONAL_PREFIX = /^(\+|00)/;

/**
 * The number of a written full international number, or the rule it breaks. The calling code is
 * the one libphonenumber-js recognises at the start (E.164 codes are prefix-free, so there is at
 * most one); the national part keeps the digits as written.
 *
 * @example
 * parseInternationalNumber('+44 7700 900123'); // { phoneNumber: '447700900123', countryCode: '44', nationalNumber: '7700900123' }
 * parseInternationalNumber('+0 123 456'); // 'must start with a country calling code (e.g. +44 7700 900123)'
 */
export function parseInternationalNumber(written: string): InternationalNumber | InternationalNumberRule {
  const digits = written.replace(SEPARATORS, '').replace(INTERNATIONAL_PREFIX, '');
  if (!/^\d+$/.test(digits)) return internationalNumberRules.notDigits;
  const phoneNumber = asPhoneNumber(digits);
  if (!phoneNumber) return internationalNumberRules.tooLong;
  let countryCode: string;
  try {
    countryCode = parsePhoneNumberWithError(`+${digits}`).countryCallingCode;
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    return error.message === 'TOO_SHORT' ? internationalNumberRules.nothingAfterCode : internationalNumberRules.noCallingCode;
  }
  const nationalNumber = digits.slice(countryCode.length);
  if (nationalNumber === '') return internationalNumberRules.nothingAfterCode;
  return { phoneNumber, countryCode, nationalNumber };
}
