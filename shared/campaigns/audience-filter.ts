/**
 * Who of a campaign's audiences it sends to: `audienceIds` (read in order, a person once),
 * `excludeAudienceIds` (anyone in one of them is left out), and a filter on the member's tags and
 * attributes (docs/CAMPAIGNS.md "Choosing who").
 */
import * as v from 'valibot';
import { ATTRIBUTE_NAME_PATTERN, type AudienceMember } from '../audiences/audience';
import { ATTRIBUTE_RULE } from './campaign-values';

/** Audiences one campaign may name (included plus excluded). */
export const MAX_CAMPAIGN_AUDIENCES = 20;
const AUDIENCE_ID_RULE = 'must be an audience id (aud_…) or contacts';
const audienceIdSchema = v.pipe(v.string(), v.regex(/^(aud_[A-Za-z0-9_-]{1,64}|contacts)$/, AUDIENCE_ID_RULE));
const tagSchema = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(64, 'must be at most 64 characters'), v.toLowerCase());
const tagsSchema = v.pipe(v.array(tagSchema), v.minLength(1, 'must name at least one tag'), v.maxLength(50, 'must name at most 50 tags'));
const scalar = v.union([v.string(), v.number(), v.boolean()], 'must be a string, a number or a boolean');
const attributeTestSchema = v.strictObject({
  in: v.optional(v.pipe(v.array(scalar), v.minLength(1, 'must name at least one value'), v.maxLength(100, 'must name at most 100 values'))),
  notIn: v.optional(v.pipe(v.array(scalar), v.minLength(1, 'must name at least one value'), v.maxLength(100, 'must name at most 100 values'))),
  exists: v.optional(v.boolean()),
});

export const audienceFilterSchema = v.strictObject({
  tags: v.optional(v.strictObject({ any: v.optional(tagsSchema), all: v.optional(tagsSchema), none: v.optional(tagsSchema) })),
  attributes: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.regex(ATTRIBUTE_NAME_PATTERN, ATTRIBUTE_RULE)), attributeTestSchema),
      v.check((tests) => Object.keys(tests).length <= 20, 'must test at most 20 attributes'),
    ),
  ),
});
export type AudienceFilter = v.InferOutput<typeof audienceFilterSchema>;

export const audienceSpecSchema = v.pipe(
  v.strictObject({
    audienceIds: v.pipe(v.array(audienceIdSchema), v.minLength(1, 'must name at least one audience')),
    filter: v.optional(audienceFilterSchema),
    excludeAudienceIds: v.optional(v.array(audienceIdSchema)),
  }),
  v.check((spec) => new Set(spec.audienceIds).size === spec.audienceIds.length, 'audienceIds must not repeat an audience'),
  v.check(
    (spec) => spec.audienceIds.length + (spec.excludeAudienceIds?.length ?? 0) <= MAX_CAMPAIGN_AUDIENCES,
    `must name at most ${MAX_CAMPAIGN_AUDIENCES} audiences in all`,
  ),
  v.check(
    (spec) => !(spec.excludeAudienceIds ?? []).some((id) => spec.audienceIds.includes(id)),
    'excludeAudienceIds must not name an audience of audienceIds',
  ),
);
export type AudienceSpec = v.InferOutput<typeof audienceSpecSchema>;

/** Attribute values compare as text, case-insensitively for strings ("Pune" matches "pune"). */
const comparable = (value: string | number | boolean): string => (typeof value === 'string' ? value.trim().toLowerCase() : String(value));

/**
 * Whether a member passes the filter (no filter: everyone).
 *
 * @example
 * memberMatches({ tags: { any: ['vip'] }, attributes: { city: { in: ['Pune'] } } }, { tags: ['vip'], attributes: { city: 'pune' } }); // true
 */
export function memberMatches(filter: AudienceFilter | undefined, member: Pick<AudienceMember, 'tags' | 'attributes'>): boolean {
  if (!filter) return true;
  const tags = new Set(member.tags);
  const { any, all, none } = filter.tags ?? {};
  if (any && !any.some((tag) => tags.has(tag))) return false;
  if (all && !all.every((tag) => tags.has(tag))) return false;
  if (none && none.some((tag) => tags.has(tag))) return false;
  for (const [name, test] of Object.entries(filter.attributes ?? {})) {
    const value = member.attributes[name];
    if (test.exists !== undefined && test.exists !== (value !== undefined)) return false;
    if (test.in && (value === undefined || !test.in.map(comparable).includes(comparable(value)))) return false;
    if (test.notIn && value !== undefined && test.notIn.map(comparable).includes(comparable(value))) return false;
  }
  return true;
}
