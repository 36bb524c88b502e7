/**
 * Meta's business-scoped user id (BSUID): the id of one WhatsApp user within one business
 * portfolio, for customers whose phone number Meta withholds (they use a username).
 * `../shared/meta/usernames-and-bsuid.md` §1: ISO 3166 alpha-2 country code, `.`, then up to 128
 * letters and digits (`US.13491208655302741918`); a parent BSUID (several portfolios enrolled in one
 * parent account) has `ENT.` after the country code (`US.ENT.11815799212886844830`) and is sent the
 * same way.
 *
 * A BSUID always holds a `.` and capital letters, a phone number (E.164 digits) never does: the one
 * test `isBusinessScopedUserId` tells the two kinds apart wherever a recipient travels as one string
 * (the outbound queue's `to`, the ledger, opt-out keys), so values written before BSUIDs existed
 * read as the phone numbers they are (docs/BROADCAST.md "Recipients by business-scoped user id").
 */
import * as v from 'valibot';

declare const bsuidBrand: unique symbol;
/** A string that passed the BSUID rule. */
export type BusinessScopedUserId = string & { readonly [bsuidBrand]: true };

/** The longest id after the country code (and `ENT.`): Meta cut it from 256 to 128 in Feb 2026. */
export const MAX_BSUID_ID_LENGTH = 128;

const BSUID_PATTERN = new RegExp(`^[A-Z]{2}\\.(?:ENT\\.)?[A-Za-z0-9]{1,${MAX_BSUID_ID_LENGTH}}$`);

/** The rule as the API words it (prefixed by the field: `data[0].userId must be …`). */
export const BSUID_RULE = `must be a business-scoped user id: a 2-letter ISO country code, a dot, an optional ENT. and 1 to ${MAX_BSUID_ID_LENGTH} letters or digits (e.g. US.13491208655302741918)`;

/**
 * Whether `text` is a BSUID or parent BSUID.
 *
 * @example
 * isBusinessScopedUserId('US.13491208655302741918'); // true
 * isBusinessScopedUserId('US.ENT.11815799212886844830'); // true
 * isBusinessScopedUserId('447700900123'); // false
 */
export function isBusinessScopedUserId(text: string): text is BusinessScopedUserId {
  return text.length <= 7 + MAX_BSUID_ID_LENGTH && BSUID_PATTERN.test(text);
}

/**
 * `text` as a BSUID, or undefined when it breaks the rule.
 *
 * @example
 * asBusinessScopedUserId('US.13491208655302741918'); // 'US.13491208655302741918'
 * asBusinessScopedUserId('us.1'); // undefined
 */
export function asBusinessScopedUserId(text: string): BusinessScopedUserId | undefined {
  return isBusinessScopedUserId(text) ? text : undefined;
}

/**
 * The valibot schema of a BSUID field (one `regex` action, so the OpenAPI document states the pattern).
 *
 * @example
 * v.safeParse(v.object({ userId: businessScopedUserIdSchema }), { userId: 'US.1' }).success; // true
 */
export const businessScopedUserIdSchema = v.pipe(v.string(), v.regex(BSUID_PATTERN, BSUID_RULE));
