/**
 * The opt-out key (shared/recipients/opt-out-key.ts): Meta's two forms of a Mexican or Brazilian
 * mobile share one key, libphonenumber-js/max (the full metadata) judges the key the valid form,
 * and every other number is its own key.
 */
import fc from 'fast-check';
import { parsePhoneNumber } from 'libphonenumber-js/max';
import { optOutKeyFormsOf, optOutKeyOf } from '../../../shared/recipients/opt-out-key';

const isValidNumber = (digits: string): boolean => parsePhoneNumber(`+${digits}`).isValid();
const digitsOf = (length: number, first = fc.constantFrom(...'0123456789')) =>
  fc.tuple(first, fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length - 1, maxLength: length - 1 })).map(([head, rest]) => head + rest);

describe('the opt-out key', () => {
  it('Mexico: the dialled 52 1 form and the 52 form of a mobile are one key, the 52 form (the valid one)', () => {
    // CDMX, Guadalajara, Monterrey, Puebla mobiles.
    for (const national of ['5512345678', '3312345678', '8112345678', '2221234567']) {
      const withOne = `521${national}`;
      const without = `52${national}`;
      expect([optOutKeyOf(withOne), optOutKeyOf(without)]).toEqual([without, without]);
      expect(isValidNumber(without)).toBe(true);
      expect(isValidNumber(withOne)).toBe(false);
      expect(optOutKeyFormsOf(withOne)).toEqual([without, withOne]);
    }
  });

  it('Brazil: with and without the ninth digit, a mobile of every area code is one key, the valid nine-digit form', () => {
    for (let area = 11; area <= 99; area += 1) {
      if (String(area).includes('0')) continue;
      for (const subscriber of ['87654321', '98765432', '66554433']) {
        const old = `55${area}${subscriber}`;
        const current = `55${area}9${subscriber}`;
        expect([optOutKeyOf(old), optOutKeyOf(current)]).toEqual([current, current]);
        expect(optOutKeyFormsOf(old)).toEqual([current, old]);
        // Where libphonenumber-js knows the area at all, the key is the form it calls valid.
        if (isValidNumber(old) || isValidNumber(current)) expect(isValidNumber(current)).toBe(true);
      }
    }
  });

  it('Brazil: landlines (2 to 5 after the area code) and nine-digit numbers are their own key', () => {
    for (const number of ['551133334444', '552125556666', '558140001234', '5511933334444', '5511923456789']) {
      expect(optOutKeyOf(number)).toBe(number);
    }
    expect(isValidNumber('551133334444')).toBe(true);
    expect(optOutKeyFormsOf('551133334444')).toEqual(['551133334444']);
  });

  it('any number: the key is idempotent, and every form of a key has that key', () => {
    const anyNumber = fc.oneof(
      digitsOf(12, fc.constant('5')),
      digitsOf(13, fc.constant('5')),
      fc.integer({ min: 8, max: 15 }).chain((length) => digitsOf(length)),
    );
    fc.assert(
      fc.property(anyNumber, (number) => {
        const key = optOutKeyOf(number);
        expect(optOutKeyOf(key)).toBe(key);
        const forms = optOutKeyFormsOf(number);
        expect(forms[0]).toBe(key);
        expect(forms).toContain(number);
        for (const form of forms) expect(optOutKeyOf(form)).toBe(key);
      }),
      { numRuns: 2_000 },
    );
  });

  it('numbers of other countries are unchanged, whatever their digits', () => {
    for (const number of ['447700900123', '919876543210', '15550001111', '5491158749895', '5061234567', '52123456789', '55119876543']) {
      expect(optOutKeyOf(number)).toBe(number);
      expect(optOutKeyFormsOf(number)).toEqual([number]);
    }
  });
});
