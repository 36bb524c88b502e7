/**
 * The phone-number rule as valibot schemas, built from the bounds of `phone-number.ts`. Messages
 * state the rule; shared/http/validation.ts prefixes the field (`data[1].toPhoneNumber must have
 * at least 4 digits`). Every schema is a string pipe of `regex`/`length` actions, so the OpenAPI
 * document converted from them states the same rule (pattern, minLength, maxLength).
 */
import * as v from 'valibot';
import { E164_MAX_DIGITS, hasDigitsWithin, isSplitNumber, phoneDigitBounds, type DigitBounds } from './phone-number';

/** The broadcast API's wording of a number with anything but digits. */
export const DIGITS_ONLY_RULE = 'must contain digits only (no +, spaces or punctuation)';

/**
 * Digits within `bounds`, each rule with its own message (the broadcast API's answers):
 * `must contain digits only (no +, spaces or punctuation)`, `must have at least 4 digits`,
 * `must have at most 14 digits`.
 *
 * @example
 * const schema = v.object({ toPhoneNumber: phoneDigits(phoneDigitBounds.nationalNumber) });
 * v.safeParse(schema, { toPhoneNumber: '12' }).issues?.[0].message; // 'must have at least 4 digits'
 */
export const phoneDigits = (bounds: DigitBounds) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, DIGITS_ONLY_RULE),
    v.minLength(bounds.min, `must have at least ${bounds.min} digits`),
    v.maxLength(bounds.max, `must have at most ${bounds.max} digits`),
  );

/**
 * Digits within `bounds` stated in one sentence, `must be 8 to 15 digits` followed by `note` (the
 * wording the v1 API and the `/upstream` bulk send answer with).
 *
 * @example
 * const schema = phoneDigitsSentence(phoneDigitBounds.international, ', country code included');
 * v.safeParse(schema, '+44').issues?.[0].message; // 'must be 8 to 15 digits, country code included'
 */
export const phoneDigitsSentence = (bounds: DigitBounds, note: string) =>
  v.pipe(v.string(), v.regex(new RegExp(`^\\d{${bounds.min},${bounds.max}}$`), `must be ${bounds.min} to ${bounds.max} digits${note}`));

/**
 * The fields of a split number (`countryCode` + `toPhoneNumber`) as the template broadcast checks
 * them, to spread into an object schema. The whole length is the use case's rule
 * (`SPLIT_NUMBER_LENGTH_RULE`), checked after the request's shape.
 *
 * @example
 * const recipient = v.object({ ...splitPhoneNumberEntries, templateParams: v.optional(v.array(v.string())) });
 */
export const splitPhoneNumberEntries = {
  countryCode: phoneDigits(phoneDigitBounds.countryCode),
  toPhoneNumber: phoneDigits(phoneDigitBounds.nationalNumber),
};

/**
 * At most this many characters in a number the earlier operations take as written. Their numbers
 * are judged per recipient (trimmed, trunk zeros dropped; an invalid one is a partial failure), so
 * the request accepts any text, but nothing longer than a written number can be: a 500 KB value is
 * a 400 naming the field, not a ledger item too large to store.
 */
export const MAX_WRITTEN_NUMBER_LENGTH = 32;

/**
 * A number of the earlier send-single / send-bulk: any string of at most 32 characters; it is
 * judged per recipient with `writtenSplitNumber` (below).
 *
 * @example
 * v.safeParse(writtenPhoneNumber, ' 07700 900123').success; // true: judged per recipient
 * v.safeParse(writtenPhoneNumber, '9'.repeat(500_000)).issues?.[0].message; // 'must be at most 32 characters'
 */
export const writtenPhoneNumber = v.pipe(v.string(), v.maxLength(MAX_WRITTEN_NUMBER_LENGTH, `must be at most ${MAX_WRITTEN_NUMBER_LENGTH} characters`));

/** What a written number of the earlier operations may hold (digits and the usual separators). */
export const WRITTEN_NUMBER_FORM_RULE = 'must hold only digits, spaces, dashes, dots, parentheses and a leading +';
const WRITTEN_NUMBER_FORM = /^\+?[0-9 .()-]*$/;
const WRITTEN_SEPARATORS = /[+ .()-]/g;

/** A written split number judged: its whole number, or the field that breaks the rule and the rule's words. */
export type WrittenSplitNumber =
  | { valid: true; countryCode: string; number: string; nationalNumber: string }
  | { valid: false; field: 'countryCode' | 'toPhoneNumber'; rule: string };

const digitsRule = (bounds: DigitBounds, after = ''): string => `must have ${bounds.min} to ${bounds.max} digits${after}`;

/** One written part: trimmed, non-empty, of the written form; its digits without the separators. */
function writtenDigits(written: string): { digits: string } | { rule: string } {
  const trimmed = written.trim();
  if (trimmed === '') return { rule: 'must not be empty' };
  if (!WRITTEN_NUMBER_FORM.test(trimmed)) return { rule: WRITTEN_NUMBER_FORM_RULE };
  return { digits: trimmed.replace(WRITTEN_SEPARATORS, '') };
}

/**
 * A split number as the earlier send-single / send-bulk take it (`countryCode` + `toPhoneNumber`,
 * each as people write it): each part non-empty, only digits and the usual separators (spaces,
 * dashes, dots, parentheses, a leading +), which are dropped; the national number's leading zeros
 * (a trunk prefix) dropped; then the split rule's bounds (`isSplitNumber`). A number breaking it is
 * a partial failure of the request, named by its field and rule (docs/FREEFORM-AND-EARLIER.md).
 *
 * @example
 * writtenSplitNumber('+44', '(0)7700 900-123'); // { valid: true, countryCode: '44', number: '447700900123', nationalNumber: '07700900123' }
 * writtenSplitNumber('91', ''); // { valid: false, field: 'toPhoneNumber', rule: 'must not be empty' }
 * writtenSplitNumber('91', '98|76'); // { valid: false, field: 'toPhoneNumber', rule: WRITTEN_NUMBER_FORM_RULE }
 */
export function writtenSplitNumber(countryCode: string, nationalNumber: string): WrittenSplitNumber {
  const code = writtenDigits(countryCode);
  if ('rule' in code) return { valid: false, field: 'countryCode', rule: code.rule };
  const national = writtenDigits(nationalNumber);
  if ('rule' in national) return { valid: false, field: 'toPhoneNumber', rule: national.rule };
  const number = national.digits.replace(/^0+/, '');
  if (!hasDigitsWithin(code.digits, phoneDigitBounds.countryCode))
    return { valid: false, field: 'countryCode', rule: digitsRule(phoneDigitBounds.countryCode) };
  if (!hasDigitsWithin(number, phoneDigitBounds.nationalNumber)) {
    return { valid: false, field: 'toPhoneNumber', rule: digitsRule(phoneDigitBounds.nationalNumber, ' without leading zeros') };
  }
  if (!isSplitNumber(code.digits, number))
    return { valid: false, field: 'toPhoneNumber', rule: `with countryCode must have at most ${E164_MAX_DIGITS} digits` };
  return { valid: true, countryCode: code.digits, number: code.digits + number, nationalNumber: national.digits };
}
