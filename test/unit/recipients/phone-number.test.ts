import fc from 'fast-check';
import * as v from 'valibot';
import { parseInternationalNumber, internationalNumberRules } from '../../../shared/recipients/international-number';
import {
  asPhoneNumber,
  e164Of,
  hasDigitsWithin,
  internationalNumberOf,
  isSplitNumber,
  phoneDigitBounds,
  phoneNumberOfParts,
} from '../../../shared/recipients/phone-number';
import { phoneDigits, phoneDigitsSentence, writtenPhoneNumber, writtenSplitNumber, WRITTEN_NUMBER_FORM_RULE } from '../../../shared/recipients/phone-rule';
import { phoneRecipient, recipientKeyOf } from '../../../shared/recipients/recipient';

describe('the phone rule', () => {
  it('takes ASCII digits within the bounds only', () => {
    const bounds = phoneDigitBounds.nationalNumber;
    expect(['1234', '12345678901234', '0000'].map((value) => hasDigitsWithin(value, bounds))).toEqual([true, true, true]);
    expect(['123', '123456789012345', '12 34', '+1234', '９８７６', '', 1234, null, undefined].map((value) => hasDigitsWithin(value, bounds))).toEqual(
      Array(9).fill(false),
    );
  });

  it('agrees with the regular expression it replaces, for any string and bounds', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('0', '5', '9', '+', ' ', '٣', 'a'), maxLength: 18 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 16 }),
        (value, min, extra) => {
          const bounds = { min, max: min + extra };
          expect(hasDigitsWithin(value, bounds)).toBe(new RegExp(`^\\d{${bounds.min},${bounds.max}}$`).test(value));
        },
      ),
    );
  });

  it('joins a split number without its trunk zeros, and refuses one longer than E.164', () => {
    expect(internationalNumberOf('44', '07700900123')).toBe('447700900123');
    expect(internationalNumberOf('49', '0015112345678')).toBe('4915112345678');
    expect(internationalNumberOf('1', '5550100')).toBe('15550100');
    expect(phoneNumberOfParts('971', '501234567890')).toBe('971501234567890');
    expect(phoneNumberOfParts('971', '5012345678901')).toBeUndefined();
    expect(phoneNumberOfParts('971', '0005012345678')).toBe('9715012345678');
  });

  it("judges an earlier send's split number by its parts and its whole", () => {
    expect(isSplitNumber('91', '9876543210')).toBe(true);
    expect(isSplitNumber('+91', '9876543210')).toBe(false);
    expect(isSplitNumber('91', '98abc43210')).toBe(false);
    expect(isSplitNumber('91', '123')).toBe(false);
    expect(isSplitNumber('971', '501234567890')).toBe(true);
    expect(isSplitNumber('971', '5012345678901')).toBe(false);
  });

  it('brands 1 to 15 digits as a PhoneNumber, written with + in E.164', () => {
    expect(asPhoneNumber('447700900123')).toBe('447700900123');
    expect(asPhoneNumber('4477009001234567')).toBeUndefined();
    expect(asPhoneNumber('+447700900123')).toBeUndefined();
    expect(e164Of(asPhoneNumber('447700900123')!)).toBe('+447700900123');
  });

  it('words each schema as the operations answer', () => {
    const message = (schema: v.GenericSchema, value: unknown) => v.safeParse(schema, value, { abortPipeEarly: true }).issues?.[0].message;
    const national = phoneDigits(phoneDigitBounds.nationalNumber);
    expect([message(national, '98-00'), message(national, '12'), message(national, '123456789012345'), message(national, '1234')]).toEqual([
      'must contain digits only (no +, spaces or punctuation)',
      'must have at least 4 digits',
      'must have at most 14 digits',
      undefined,
    ]);
    expect(message(phoneDigitsSentence(phoneDigitBounds.international, ', country code included'), '+4477009001')).toBe(
      'must be 8 to 15 digits, country code included',
    );
    expect(message(writtenPhoneNumber, ' 07700 900123 ')).toBeUndefined();
    expect(message(writtenPhoneNumber, '9'.repeat(500_000))).toBe('must be at most 32 characters');
  });
});

describe('parseInternationalNumber (libphonenumber-js finds the calling code)', () => {
  it.each([
    ['+1 555 010 0001', '1', '5550100001'],
    ['+7 916 123-45-67', '7', '9161234567'],
    ['+44 7700 900123', '44', '7700900123'],
    ['0044-7700-900123', '44', '7700900123'],
    ['919876543210', '91', '9876543210'],
    ['+971 50 123 4567', '971', '501234567'],
    ['(234) 803 123 4567', '234', '8031234567'],
    ['+353.1234.5678', '353', '12345678'],
    ['+44 07700 900123', '44', '07700900123'],
  ])('%s → %s + %s', (written, countryCode, nationalNumber) => {
    expect(parseInternationalNumber(written)).toEqual({ phoneNumber: countryCode + nationalNumber, countryCode, nationalNumber });
  });

  it('names the rule a written number breaks', () => {
    expect(parseInternationalNumber('44-77OO')).toBe(internationalNumberRules.notDigits);
    expect(parseInternationalNumber('+1234567890123456')).toBe(internationalNumberRules.tooLong);
    expect(parseInternationalNumber('+0 123 456')).toBe(internationalNumberRules.noCallingCode);
    expect(parseInternationalNumber('+259 1234567')).toBe(internationalNumberRules.noCallingCode);
    expect(parseInternationalNumber('+44')).toBe(internationalNumberRules.nothingAfterCode);
  });
});

describe('Recipient', () => {
  it('is a phone number today, compared and addressed by its digits', () => {
    const recipient = phoneRecipient(asPhoneNumber('447700900123')!);
    expect(recipient).toEqual({ kind: 'phone', phoneNumber: '447700900123' });
    expect(recipientKeyOf(recipient)).toBe('447700900123');
  });
});

describe("the earlier operations' written split number (issue 35)", () => {
  it('drops the usual separators and the trunk zeros, then applies the split rule', () => {
    expect(writtenSplitNumber('+44', '(0)7700 900-123')).toEqual({ valid: true, countryCode: '44', number: '447700900123', nationalNumber: '07700900123' });
    expect(writtenSplitNumber(' 91 ', '98.765.43210')).toEqual({ valid: true, countryCode: '91', number: '919876543210', nationalNumber: '9876543210' });
    expect(writtenSplitNumber('49', '015112345678')).toEqual({ valid: true, countryCode: '49', number: '4915112345678', nationalNumber: '015112345678' });
  });

  it('names the field and the rule of a number no ledger should hold', () => {
    expect(writtenSplitNumber('', '')).toEqual({ valid: false, field: 'countryCode', rule: 'must not be empty' });
    expect(writtenSplitNumber('91', '  ')).toEqual({ valid: false, field: 'toPhoneNumber', rule: 'must not be empty' });
    for (const written of ['98|76543210', '98abc43210', '98765+43210', '9876\t543210', '９８７６５４３２１０', '98765%43210']) {
      expect(writtenSplitNumber('91', written)).toEqual({ valid: false, field: 'toPhoneNumber', rule: WRITTEN_NUMBER_FORM_RULE });
    }
    expect(writtenSplitNumber('9|1', '9876543210')).toEqual({ valid: false, field: 'countryCode', rule: WRITTEN_NUMBER_FORM_RULE });
    expect(writtenSplitNumber('1234', '9876543210')).toEqual({ valid: false, field: 'countryCode', rule: 'must have 1 to 3 digits' });
    expect(writtenSplitNumber('+', '9876543210')).toEqual({ valid: false, field: 'countryCode', rule: 'must have 1 to 3 digits' });
    expect(writtenSplitNumber('91', '000123')).toEqual({ valid: false, field: 'toPhoneNumber', rule: 'must have 4 to 14 digits without leading zeros' });
    expect(writtenSplitNumber('971', '501234567890-1')).toEqual({ valid: false, field: 'toPhoneNumber', rule: 'with countryCode must have at most 15 digits' });
  });

  it('a valid answer is always E.164 digits; anything else names a field (any string of up to 32 characters)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 32 }), fc.string({ maxLength: 32 }), (countryCode, national) => {
        const judged = writtenSplitNumber(countryCode, national);
        if (judged.valid) expect(asPhoneNumber(judged.number)).toBe(judged.number);
        else expect(['countryCode', 'toPhoneNumber']).toContain(judged.field);
      }),
    );
  });
});
