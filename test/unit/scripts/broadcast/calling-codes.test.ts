import { callingCodes, splitInternationalNumber } from '../../../../scripts/broadcast/calling-codes';

describe('splitInternationalNumber', () => {
  it.each([
    ['15550100001', '1', '5550100001'],
    ['79161234567', '7', '9161234567'],
    ['447700900123', '44', '7700900123'],
    ['919876543210', '91', '9876543210'],
    ['971501234567', '971', '501234567'],
    ['2348031234567', '234', '8031234567'],
    ['35312345678', '353', '12345678'],
  ])('%s → %s + %s', (digits, countryCode, toPhoneNumber) => {
    expect(splitInternationalNumber(digits)).toEqual({ countryCode, toPhoneNumber });
  });

  it('finds no code in an unassigned prefix, and nothing when only the code is given', () => {
    expect(splitInternationalNumber('0123456789')).toBeUndefined();
    expect(splitInternationalNumber('2591234567')).toBeUndefined();
    expect(splitInternationalNumber('44')).toBeUndefined();
  });

  it('is prefix-free, as E.164 codes are, so the split is unambiguous', () => {
    for (const code of callingCodes) {
      for (let length = 1; length < code.length; length += 1) expect({ code, prefix: callingCodes.has(code.slice(0, length)) }).toEqual({ code, prefix: false });
    }
  });
});
