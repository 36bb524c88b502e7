/**
 * Query of GET /campaigns. Messages state the rule; shared/http/validation.ts prefixes the field
 * (`state must be one of …`).
 */
import * as v from 'valibot';
import { CAMPAIGN_STATES } from './campaign';
import { CAMPAIGNS_PAGE_DEFAULT, CAMPAIGNS_PAGE_MAX } from './list-campaigns';

const limitRule = `must be a whole number from 1 to ${CAMPAIGNS_PAGE_MAX}`;

export const campaignsQuerySchema = v.object({
  state: v.optional(v.picklist(CAMPAIGN_STATES, `must be one of ${CAMPAIGN_STATES.join(', ')}`)),
  limit: v.pipe(
    v.optional(v.string(), String(CAMPAIGNS_PAGE_DEFAULT)),
    v.regex(/^\d{1,3}$/, limitRule),
    v.transform(Number),
    v.minValue(1, limitRule),
    v.maxValue(CAMPAIGNS_PAGE_MAX, limitRule),
  ),
  // Opaque: its content is checked by the use case; here only its shape, so junk never reaches a decoder.
  cursor: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,1024}$/, 'must be a nextCursor returned by this endpoint'))),
});

export type CampaignsQueryInput = v.InferOutput<typeof campaignsQuerySchema>;
