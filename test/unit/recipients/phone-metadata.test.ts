import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import examples from 'libphonenumber-js/examples.mobile.json';
import packageMetadata from 'libphonenumber-js/metadata.min.json';
import * as library from 'libphonenumber-js/min';
import { installedParsingMetadata, phoneMetadataPath, renderPhoneMetadata } from '../../../scripts/generate-phone-metadata';
import { PHONE_METADATA_SOURCE } from '../../../shared/recipients/phone-metadata';
import { ParseError, parsePhoneNumberFromString, parsePhoneNumberWithError } from '../../../shared/recipients/phone-parsing';

/** What a parse answers, comparable across the two bindings: the number's parts, or the error's name. */
function answerOf(parse: () => { country?: string; countryCallingCode: string; nationalNumber: string; number: string } | undefined): unknown {
  try {
    const parsed = parse();
    return parsed && { country: parsed.country, code: parsed.countryCallingCode, national: parsed.nationalNumber, number: parsed.number };
  } catch (error) {
    return { error: error instanceof ParseError || error instanceof library.ParseError ? error.message : String(error) };
  }
}

const ours = (text: string) => [answerOf(() => parsePhoneNumberFromString(text)), answerOf(() => parsePhoneNumberWithError(text))];
const theirs = (text: string) => [answerOf(() => library.parsePhoneNumberFromString(text)), answerOf(() => library.parsePhoneNumberWithError(text))];

describe('phone-metadata.ts (libphonenumber-js "min" metadata without formats)', () => {
  it('is what scripts/generate-phone-metadata.ts makes from the installed package (run it after an upgrade)', () => {
    const installed = installedParsingMetadata();
    expect(readFileSync(phoneMetadataPath, 'utf8')).toBe(renderPhoneMetadata(installed.version, installed.metadata));
    expect(PHONE_METADATA_SOURCE).toBe(`libphonenumber-js@${installed.version}`);
  });

  it("parses every country's example number as the package's own metadata does", () => {
    const numbers = Object.entries(examples as Record<string, string>).map(
      ([country, national]) => `+${library.getCountryCallingCode(country as library.CountryCode)}${national}`,
    );
    expect(numbers.length).toBeGreaterThan(240);
    for (const number of numbers) expect({ number, answer: ours(number) }).toEqual({ number, answer: theirs(number) });
  });

  it('parses random numbers as the package does, in the calling codes several countries share too', () => {
    const shared = fc.constantFrom('1', '7', '39', '44', '47', '61', '212', '262', '290', '358', '590', '599', '800', '882');
    const text = fc.oneof(
      fc.stringMatching(/^\+\d{0,18}$/),
      fc.tuple(shared, fc.stringMatching(/^\d{0,13}$/)).map(([code, rest]) => `+${code}${rest}`),
      fc.stringMatching(/^\+?[\d ()-]{0,20}$/),
    );
    fc.assert(
      fc.property(text, (written) => JSON.stringify(ours(written)) === JSON.stringify(theirs(written))),
      { numRuns: 5000 },
    );
  });

  it('leaves out what parsing never reads: the formats', () => {
    expect(readFileSync(phoneMetadataPath, 'utf8').length).toBeLessThan(0.5 * JSON.stringify(packageMetadata).length);
  });
});
