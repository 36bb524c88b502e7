/**
 * The country calling code of a recipient (its key, recipient.ts): the leading digits of a full
 * international number, or for a business-scoped user id the calling code of its ISO country
 * prefix (`US.1349…` → `1`). What a rate card is looked up by (docs/BROADCAST.md "Cost per campaign").
 *
 * Calling codes are prefix-free (ITU E.164), so the first 1 to 3 digits name at most one. The codes
 * are libphonenumber-js's (its "min" metadata), read from calling-code-data.ts, which a script
 * generates from the library and a unit test checks against it: the functions that only need a
 * calling code (pricing, delivery counts, status) then do not bundle the library's ~90 KiB.
 */
import { COUNTRIES_BY_CALLING_CODE } from './calling-code-data';

let codeOfCountry: ReadonlyMap<string, string> | undefined;
const countryCodes = (): ReadonlyMap<string, string> =>
  (codeOfCountry ??= new Map(
    Object.entries(COUNTRIES_BY_CALLING_CODE).flatMap(([code, countries]) => countries.split(' ').map((country) => [country, code] as const)),
  ));

/**
 * The calling code of a recipient key, undefined when none is known (a number starting with an
 * unassigned code, a user id of an unknown country).
 *
 * @example
 * callingCodeOf('447700900001'); // '44'
 * callingCodeOf('US.13491208655302741918'); // '1'
 */
export function callingCodeOf(recipientKey: string): string | undefined {
  const dot = recipientKey.indexOf('.');
  if (dot !== -1) return callingCodeOfCountry(recipientKey.slice(0, dot));
  for (let length = 1; length <= 3; length += 1) {
    const prefix = recipientKey.slice(0, length);
    if (Object.hasOwn(COUNTRIES_BY_CALLING_CODE, prefix)) return prefix;
  }
  return undefined;
}

/**
 * The calling code of an ISO 3166 country (a business-scoped user id's prefix), undefined when unknown.
 *
 * @example
 * callingCodeOfCountry('BR'); // '55'
 * callingCodeOfCountry('XX'); // undefined
 */
export const callingCodeOfCountry = (country: string): string | undefined => countryCodes().get(country);
