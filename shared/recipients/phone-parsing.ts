/**
 * The one place libphonenumber-js is bound: its parsers over phone-metadata.ts, the package's "min"
 * metadata without the formats nothing here uses (~50 KB less in every bundle that parses). The
 * answers are the library's own: test/unit/recipients/phone-metadata.test.ts parses random numbers
 * both ways and compares.
 */
import { parsePhoneNumberFromString as parseFromString, parsePhoneNumberWithError as parseWithError, type PhoneNumber } from 'libphonenumber-js/core';
import { PHONE_METADATA } from './phone-metadata';

export { ParseError } from 'libphonenumber-js/core';

/**
 * A written number parsed, or undefined when it is not one (libphonenumber-js's `parsePhoneNumberFromString`).
 *
 * @example
 * parsePhoneNumberFromString('+14165550123')?.country; // 'CA'
 */
export const parsePhoneNumberFromString = (text: string): PhoneNumber | undefined => parseFromString(text, PHONE_METADATA);

/**
 * A written number parsed; a `ParseError` naming why not (`TOO_SHORT`, `INVALID_COUNTRY`, …), as libphonenumber-js's `parsePhoneNumberWithError`.
 *
 * @example
 * parsePhoneNumberWithError('+447700900123').countryCallingCode; // '44'
 */
export const parsePhoneNumberWithError = (text: string): PhoneNumber => parseWithError(text, PHONE_METADATA);
