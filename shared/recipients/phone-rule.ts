/**
 * The phone-number rule as valibot schemas, built from the bounds of `phone-number.ts`. Messages
 * state the rule; shared/http/validation.ts prefixes the field (`data[1].toPhoneNumber must have
 * at least 4 digits`). Every schema is a string pipe of `regex`/`length` actions, so the OpenAPI
 * document converted from them states the same rule (pattern, minLength, maxLength).
 */
import * as v from 'valibot';
import { phoneDigitBounds, type DigitBounds } from './phone-number';

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
 * A number of the earlier send-single / send-bulk: any string of at most 32 characters; its
 * digits are judged per recipient with `isSplitNumber` (phone-number.ts).
 *
 * @example
 * v.safeParse(writtenPhoneNumber, ' 07700 900123').success; // true: judged per recipient
 * v.safeParse(writtenPhoneNumber, '9'.repeat(500_000)).issues?.[0].message; // 'must be at most 32 characters'
 */
export const writtenPhoneNumber = v.pipe(
  v.string(),
  v.maxLength(MAX_WRITTEN_NUMBER_LENGTH, `must be at most ${MAX_WRITTEN_NUMBER_LENGTH} characters`),
);
