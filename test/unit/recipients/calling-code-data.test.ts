import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { getCountries, getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/min';
import { callingCodeDataPath, installedCallingCodes, renderCallingCodeData } from '../../../scripts/generate-calling-codes';
import { callingCodeOf } from '../../../shared/recipients/calling-code';
import { CALLING_CODE_SOURCE, COUNTRIES_BY_CALLING_CODE } from '../../../shared/recipients/calling-code-data';

/** The answer straight from the library: what calling-code.ts answered before it read the generated table. */
function libraryCallingCodeOf(key: string): string | undefined {
  const dot = key.indexOf('.');
  if (dot !== -1) {
    const country = key.slice(0, dot);
    return isSupportedCountry(country) ? String(getCountryCallingCode(country)) : undefined;
  }
  const codes = new Set(getCountries().map((country) => String(getCountryCallingCode(country))));
  return [1, 2, 3].map((length) => key.slice(0, length)).find((prefix) => codes.has(prefix));
}

describe('calling-code-data.ts (generated from libphonenumber-js)', () => {
  const installed = installedCallingCodes();

  it('is what scripts/generate-calling-codes.ts makes from the installed package (run it after an upgrade)', () => {
    expect(readFileSync(callingCodeDataPath, 'utf8')).toBe(renderCallingCodeData(installed.version, installed.countriesByCode));
    expect(CALLING_CODE_SOURCE).toBe(`libphonenumber-js@${installed.version}`);
  });

  it('holds every country of the library once, under its calling code', () => {
    const listed = Object.entries(COUNTRIES_BY_CALLING_CODE).flatMap(([code, countries]) => countries.split(' ').map((country) => [country, code]));
    expect(listed.map(([country]) => country).sort()).toEqual([...getCountries()].sort());
    for (const [country, code] of listed) expect(String(getCountryCallingCode(country as never))).toBe(code);
    expect(listed.length).toBeGreaterThan(240);
  });
});

describe('callingCodeOf on the generated table', () => {
  it('answers as the library does for numbers and business-scoped user ids', () => {
    const country = fc.constantFrom(...getCountries(), 'XX', 'us', 'ZZ');
    const keys = fc.oneof(
      fc.stringMatching(/^\d{1,15}$/),
      country.chain((code) => fc.stringMatching(/^\d{0,12}$/).map((digits) => `${isSupportedCountry(code) ? getCountryCallingCode(code) : '999'}${digits}`)),
      fc.tuple(country, fc.stringMatching(/^\d{5,20}$/)).map(([code, digits]) => `${code}.${digits}`),
    );
    fc.assert(
      fc.property(keys, (key) => callingCodeOf(key) === libraryCallingCodeOf(key)),
      { numRuns: 3000 },
    );
  });

  it('names the code of shared and three-digit codes, and none for unassigned ones', () => {
    expect(callingCodeOf('14165550123')).toBe('1');
    expect(callingCodeOf('79161234567')).toBe('7');
    expect(callingCodeOf('3545551234')).toBe('354');
    expect(callingCodeOf('2805551234')).toBeUndefined();
    expect(callingCodeOf('KZ.1234567')).toBe('7');
    expect(callingCodeOf('XX.1234567')).toBeUndefined();
  });
});
