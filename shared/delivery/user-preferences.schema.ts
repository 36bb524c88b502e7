/**
 * Meta's `user_preferences` webhook field (fact sheet row 6; ../shared/meta/usernames-and-bsuid.md
 * §4): a user stopped or resumed marketing messages from the business inside WhatsApp.
 *
 * `value`: `metadata` (the business number), `contacts[]`, and `user_preferences[]`, each with
 * `wa_id` (omitted when Meta withholds the number) and/or `user_id` (and `parent_user_id`: ignored,
 * preferences are per BSUID), `category` (`marketing_messages`; any other category is not an
 * opt-out and is ignored), `value` (`stop` or `resume`), `detail` and `timestamp`. Read leniently as
 * the rest of the body: a malformed element is skipped and reported, the others apply.
 */
import * as v from 'valibot';
import type { MarketingPreference } from './ports';

export const USER_PREFERENCES_FIELD = 'user_preferences';

/** The marketing preferences of one `user_preferences` change, owned by its business number (else its WABA). */
export interface UserPreferencesChange {
  kind: 'user-preferences';
  /** The WABA id of the entry. */
  entryId: string;
  /** `metadata.phone_number_id`, when given (the owner is then the number's). */
  phoneNumberId?: string;
  preferences: MarketingPreference[];
}

const nonEmpty = (field: string) => v.pipe(v.string(`${field} must be a string`), v.minLength(1, `${field} must not be empty`));

const valueSchema = v.looseObject({
  metadata: v.optional(v.looseObject({ phone_number_id: v.optional(nonEmpty('metadata.phone_number_id')) })),
  user_preferences: v.array(v.unknown(), 'user_preferences must be a list'),
});

const preferenceSchema = v.looseObject({
  wa_id: v.optional(nonEmpty('wa_id')),
  user_id: v.optional(nonEmpty('user_id')),
  category: v.string('category must be a string'),
  value: v.string('value must be a string'),
  timestamp: v.pipe(
    v.union([v.pipe(v.string(), v.regex(/^\d{1,12}$/)), v.pipe(v.number(), v.integer(), v.minValue(0))], 'timestamp must be epoch seconds'),
    v.transform((seconds) => new Date(Number(seconds) * 1000)),
  ),
});

const problemOf = (issues: readonly v.BaseIssue<unknown>[]): string =>
  [...new Set(issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.expected ? `expected ${issue.expected}` : 'invalid'}`))].join('; ');

/**
 * The change's marketing preferences; elements it cannot read are added to `skipped` (by position
 * and field names, never values). Undefined when the value itself is unreadable (also reported).
 *
 * @example
 * readUserPreferencesChange('waba_1', { metadata: { phone_number_id: 'pn_1' }, user_preferences: [{ user_id: 'US.1', category: 'marketing_messages', value: 'stop', timestamp: '1767225600' }] }, 'entry[0].changes[0].value', []);
 * // { kind: 'user-preferences', entryId: 'waba_1', phoneNumberId: 'pn_1', preferences: [{ userId: 'US.1', value: 'stop', timestamp: new Date('2026-01-01T00:00:00Z') }] }
 */
export function readUserPreferencesChange(
  entryId: string,
  rawValue: unknown,
  at: string,
  skipped: Array<{ at: string; problem: string }>,
): UserPreferencesChange | undefined {
  const value = v.safeParse(valueSchema, rawValue);
  if (!value.success) {
    skipped.push({ at, problem: problemOf(value.issues) });
    return undefined;
  }
  const phoneNumberId = value.output.metadata?.phone_number_id;
  const change: UserPreferencesChange = { kind: 'user-preferences', entryId, ...(phoneNumberId === undefined ? {} : { phoneNumberId }), preferences: [] };
  value.output.user_preferences.forEach((raw, position) => {
    const where = `${at}.user_preferences[${position}]`;
    const preference = v.safeParse(preferenceSchema, raw);
    if (!preference.success) {
      skipped.push({ at: where, problem: problemOf(preference.issues) });
      return;
    }
    const { wa_id: phoneNumber, user_id: userId, category, value: choice, timestamp } = preference.output;
    // Another category (Meta may add some) is not a marketing opt-out: nothing to record.
    if (category !== 'marketing_messages') return;
    if (choice !== 'stop' && choice !== 'resume') {
      skipped.push({ at: where, problem: 'value: expected "stop" | "resume"' });
      return;
    }
    if (phoneNumber === undefined && userId === undefined) {
      skipped.push({ at: where, problem: 'wa_id or user_id is required' });
      return;
    }
    change.preferences.push({ ...(phoneNumber === undefined ? {} : { phoneNumber }), ...(userId === undefined ? {} : { userId }), value: choice, timestamp });
  });
  return change;
}
