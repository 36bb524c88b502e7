/**
 * The country calling code of a recipient (its key, recipient.ts): the leading digits of a full
 * international number, or for a business-scoped user id the calling code of its ISO country
 * prefix (`US.1349…` → `1`). What a rate card is looked up by (docs/BROADCAST.md "Cost per campaign").
 *
 * Calling codes are prefix-free (ITU E.164), so the first 1 to 3 digits name at most one; the set
 * comes from libphonenumber-js's metadata (its "min" build, as international-number.ts), built once.
 */
import { getCountries, getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/min';

let callingCodes: ReadonlySet<string> | undefined;
const knownCallingCodes = (): ReadonlySet<string> => (callingCodes ??= new Set(getCountries().map((country) => String(getCountryCallingCode(country)))));

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
  if (dot !== -1) {
    const country = recipientKey.slice(0, dot);
    return isSupportedCountry(country) ? String(getCountryCallingCode(country)) : undefined;
  }
  const codes = knownCallingCodes();
  for (let length = 1; length <= 3; length += 1) {
    const prefix = recipientKey.slice(0, length);
    if (codes.has(prefix)) return prefix;
  }
  return undefined;
}
