/**
 * What a member row of `POST` / `DELETE /audiences/{audienceId}/members` may hold (docs/CAMPAIGNS.md
 * "Attributes and tags"). The body's shape (a `members` array of 1 to 10,000) is the request's rule
 * (a 400); each row is judged on its own: an invalid row is listed with its index, field and rule,
 * and nothing is stored for it, while the valid rows are.
 */
import * as v from 'valibot';
import { SPLIT_NUMBER_LENGTH_RULE, E164_MAX_DIGITS } from '../recipients/phone-number';
import { splitPhoneNumberEntries } from '../recipients/phone-rule';
import { businessScopedUserIdSchema } from '../recipients/business-scoped-user-id';
import { issueParts } from '../http/validation';
import { ATTRIBUTE_NAME_PATTERN, AUDIENCE_LIMITS, type AttributeValue } from './audience';
import type { PersonIdentity } from './person-key';

const limits = AUDIENCE_LIMITS;
const noOtherField = v.never('is not a known field');

const attributeValueSchema = v.union(
  [
    v.pipe(v.string(), v.maxLength(limits.attributeValueLength, `must be at most ${limits.attributeValueLength} characters`)),
    // DynamoDB stores numbers of magnitude 1e-130 to just under 1e126 (and 0): anything else would fail the write.
    v.pipe(
      v.number(),
      v.finite(),
      v.check((value) => value === 0 || (Math.abs(value) >= 1e-130 && Math.abs(value) < 1e126), 'must be 0 or of magnitude 1e-130 to 1e126'),
    ),
    v.boolean(),
  ],
  'must be a string, a number or a boolean',
);

const attributesSchema = v.pipe(
  v.record(v.pipe(v.string(), v.regex(ATTRIBUTE_NAME_PATTERN, `names must be 1 to ${limits.attributeNameLength} letters, digits or _`)), attributeValueSchema),
  v.check((value) => Object.keys(value).length <= limits.attributesPerMember, `must hold at most ${limits.attributesPerMember} attributes`),
);

const tagSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(limits.tagLength, `must be at most ${limits.tagLength} characters`),
);

/** Lower case, each once, in the order given. */
const tagsSchema = v.pipe(
  v.array(tagSchema),
  v.maxLength(limits.tagsPerMember, `must hold at most ${limits.tagsPerMember} tags`),
  v.transform((tags) => [...new Set(tags)]),
);

const identityEntries = {
  countryCode: v.optional(splitPhoneNumberEntries.countryCode),
  toPhoneNumber: v.optional(splitPhoneNumberEntries.toPhoneNumber),
  userId: v.optional(businessScopedUserIdSchema),
};

/** One row of an upsert: a split number, a BSUID, or both, with attributes and tags. */
export const memberRowSchema = v.objectWithRest({ ...identityEntries, attributes: v.optional(attributesSchema), tags: v.optional(tagsSchema) }, noOtherField);

/** One row of a removal: a split number or a BSUID. */
export const memberKeyRowSchema = v.objectWithRest(identityEntries, noOtherField);

const rowsOf = (row: v.GenericSchema) =>
  v.pipe(
    v.array(row),
    v.minLength(1, 'must hold at least one member'),
    v.maxLength(limits.membersPerRequest, `must hold at most ${limits.membersPerRequest} members`),
  );

/** The documented bodies (OpenAPI): what a valid row is. */
export const upsertMembersSchema = v.object({ members: rowsOf(memberRowSchema) });
export const removeMembersSchema = v.object({ members: rowsOf(memberKeyRowSchema) });

/** What the handler parses: the array's bounds only; rows are judged one by one (`judgeRows`). */
export const memberRowsBodySchema = v.object({ members: rowsOf(v.unknown()) });

export interface InvalidRow {
  index: number;
  field: string;
  rule: string;
}

export interface JudgedRow {
  index: number;
  identity: PersonIdentity;
  attributes?: Record<string, AttributeValue>;
  tags?: string[];
}

/** The identity rule beyond each field's: a number needs both parts within E.164, or a BSUID stands alone. */
function identityProblem(row: { countryCode?: string; toPhoneNumber?: string; userId?: string }): { field: string; rule: string } | undefined {
  const { countryCode, toPhoneNumber, userId } = row;
  if (countryCode === undefined && toPhoneNumber === undefined)
    return userId === undefined ? { field: 'toPhoneNumber', rule: 'is required (or userId)' } : undefined;
  if (countryCode === undefined) return { field: 'countryCode', rule: 'is required with toPhoneNumber' };
  if (toPhoneNumber === undefined) return { field: 'toPhoneNumber', rule: 'is required with countryCode' };
  return countryCode.length + toPhoneNumber.length > E164_MAX_DIGITS ? { field: 'toPhoneNumber', rule: SPLIT_NUMBER_LENGTH_RULE } : undefined;
}

/**
 * Judges each row: the valid ones with their identity, the others with their first broken rule.
 *
 * @example
 * judgeRows(memberRowSchema, [{ countryCode: '91', toPhoneNumber: '9876543210', tags: ['VIP'] }, { userId: 'x' }]);
 * // { valid: [{ index: 0, identity: { phone: { countryCode: '91', toPhoneNumber: '9876543210' } }, tags: ['vip'] }],
 * //   invalid: [{ index: 1, field: 'userId', rule: 'must be a business-scoped user id: …' }] }
 */
export function judgeRows(schema: typeof memberRowSchema | typeof memberKeyRowSchema, rows: readonly unknown[]): { valid: JudgedRow[]; invalid: InvalidRow[] } {
  const valid: JudgedRow[] = [];
  const invalid: InvalidRow[] = [];
  rows.forEach((row, index) => {
    const result = v.safeParse(schema, row, { abortPipeEarly: true });
    if (!result.success) return void invalid.push({ index, ...issueParts(result.issues, 'row')[0]! });
    const output = result.output as v.InferOutput<typeof memberRowSchema>;
    const problem = identityProblem(output);
    if (problem) return void invalid.push({ index, ...problem });
    const { countryCode, toPhoneNumber, userId, attributes, tags } = output;
    const phone = countryCode !== undefined && toPhoneNumber !== undefined ? { phone: { countryCode, toPhoneNumber } } : {};
    valid.push({ index, identity: { ...phone, ...(userId === undefined ? {} : { userId }) }, ...(attributes && { attributes }), ...(tags && { tags }) });
  });
  return { valid, invalid };
}
