/**
 * Requests of the /audiences routes besides member rows (member-rows.schema.ts). Messages state the
 * rule; shared/http/validation.ts prefixes the field (`name must not be empty`).
 */
import * as v from 'valibot';
import { AUDIENCE_LIMITS, CONTACTS_AUDIENCE_ID } from './audience';

/** Audiences per page of GET /audiences; members per page of GET /audiences/{audienceId}/members. */
export const AUDIENCES_PAGE = { default: 50, max: 100 } as const;
export const MEMBERS_PAGE = { default: 1000, max: 1000 } as const;

/** `aud_…` as createAudience makes them, or `contacts`. Anything else names no audience (404 without a read). */
export const AUDIENCE_ID_PATTERN = new RegExp(`^(?:aud_[A-Za-z0-9]{1,64}|${CONTACTS_AUDIENCE_ID})$`);

export const createAudienceSchema = v.object({
  name: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(AUDIENCE_LIMITS.nameLength, `must be at most ${AUDIENCE_LIMITS.nameLength} characters`),
  ),
});

const limitOf = (page: { default: number; max: number }) =>
  v.pipe(
    v.optional(v.string(), String(page.default)),
    v.regex(/^\d{1,4}$/, `must be a whole number from 1 to ${page.max}`),
    v.transform(Number),
    v.minValue(1, `must be a whole number from 1 to ${page.max}`),
    v.maxValue(page.max, `must be a whole number from 1 to ${page.max}`),
  );

// Opaque: its content is checked by the use case; here only its shape, so junk never reaches a decoder.
const cursor = v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,512}$/, 'must be a nextCursor returned by this endpoint')));

export const listAudiencesQuerySchema = v.object({ limit: limitOf(AUDIENCES_PAGE), cursor });

export const listMembersQuerySchema = v.object({
  limit: limitOf(MEMBERS_PAGE),
  cursor,
  format: v.optional(v.picklist(['json', 'csv'], 'must be json or csv')),
});
