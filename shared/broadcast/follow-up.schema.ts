/**
 * The body of POST /broadcasts/{jobId}/follow-up: a template broadcast's body without `data`
 * (template, sender, name, values, rich content, scheduling) plus who of the parent job gets it
 * (`audience`) and `force` (docs/BROADCAST.md "Follow-ups").
 */
import * as v from 'valibot';
import { templateBroadcastSchema } from './template-broadcast.schema';
import { MAX_KEPT_PAYLOAD } from '../outcomes/outcome-facts';

/** The recipient statuses a follow-up may target (the recipients list's, less those never sent or still running). */
export const FOLLOW_UP_STATUSES = ['FAILED', 'UNKNOWN', 'UNCONFIRMED', 'SENT', 'DELIVERED', 'READ'] as const;
export type FollowUpStatus = (typeof FOLLOW_UP_STATUSES)[number];

/** A follow-up of "did not read" looks back at most 90 days (jobs live 90 days). */
export const MAX_NOT_READ_AFTER_HOURS = 90 * 24;

/** A follow-up by buttons names at most this many payloads. */
export const MAX_BUTTON_PAYLOADS = 10;

const AUDIENCE_RULE = 'must give at least one of statuses, failureCodes, notReadAfterHours, replied, clicked, buttonPayloads';
const PAYLOAD_RULE = `values must be button payloads of 1 to ${MAX_KEPT_PAYLOAD} characters`;

const audienceEntries = v.object({
  statuses: v.optional(
    v.pipe(
      v.array(v.picklist(FOLLOW_UP_STATUSES, `values must be one of ${FOLLOW_UP_STATUSES.join(', ')}`)),
      v.minLength(1, 'must hold at least 1 status'),
      v.description('Recipients of the parent job whose status is one of these'),
    ),
  ),
  failureCodes: v.optional(
    v.pipe(
      v.array(v.pipe(v.number(), v.integer('values must be whole numbers'), v.minValue(0, 'values must be Meta error codes (whole numbers)'))),
      v.minLength(1, 'must hold at least 1 code'),
      v.description("FAILED recipients whose failure code (Meta's, e.g. 131049) is one of these"),
    ),
  ),
  notReadAfterHours: v.optional(
    v.pipe(
      v.number(),
      v.integer('must be a whole number of hours'),
      v.minValue(1, `must be a whole number of hours from 1 to ${MAX_NOT_READ_AFTER_HOURS}`),
      v.maxValue(MAX_NOT_READ_AFTER_HOURS, `must be a whole number of hours from 1 to ${MAX_NOT_READ_AFTER_HOURS}`),
      v.description('Recipients sent (SENT or DELIVERED, not READ) at least this many hours ago'),
    ),
  ),
  // Outcomes (docs/OUTCOMES.md "Where it shows"): e.g. statuses [READ] with replied false, "read but did not reply".
  replied: v.optional(
    v.pipe(v.boolean('must be true or false'), v.description('Recipients with (true) or without (false) a reply attributed to the parent job')),
  ),
  clicked: v.optional(
    v.pipe(v.boolean('must be true or false'), v.description('Recipients with (true) or without (false) a counted click on their tracked link')),
  ),
  buttonPayloads: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(PAYLOAD_RULE), v.minLength(1, PAYLOAD_RULE), v.maxLength(MAX_KEPT_PAYLOAD, PAYLOAD_RULE))),
      v.minLength(1, 'must hold at least 1 payload'),
      v.maxLength(MAX_BUTTON_PAYLOADS, `must hold at most ${MAX_BUTTON_PAYLOADS} payloads`),
      v.description('Recipients who tapped a quick-reply button whose payload is one of these'),
    ),
  ),
});
type Audience = v.InferOutput<typeof audienceEntries>;
const AUDIENCE_CONDITIONS = ['statuses', 'failureCodes', 'notReadAfterHours', 'replied', 'clicked', 'buttonPayloads'] as const satisfies ReadonlyArray<
  keyof Audience
>;

export const followUpAudienceSchema = v.pipe(
  audienceEntries,
  v.check((audience: Audience) => AUDIENCE_CONDITIONS.some((condition) => audience[condition] !== undefined), AUDIENCE_RULE),
);

const { data: _data, ...broadcastEntries } = templateBroadcastSchema.entries;

export const followUpSchema = v.object({
  ...broadcastEntries,
  audience: followUpAudienceSchema,
  /** Send to 131049 failures younger than 24 hours all the same (docs/BROADCAST.md "Follow-ups"). */
  force: v.optional(v.boolean('must be true or false')),
});

export type FollowUpRequest = v.InferOutput<typeof followUpSchema>;
export type FollowUpAudience = v.InferOutput<typeof followUpAudienceSchema>;
