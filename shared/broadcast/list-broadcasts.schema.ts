/**
 * Query of GET /broadcasts. Messages state the rule; shared/http/validation.ts prefixes the field
 * (`status must be one of …`).
 */
import * as v from 'valibot';
import { JOB_STATUSES } from './broadcast-job';
import { BROADCASTS_PAGE_DEFAULT, BROADCASTS_PAGE_MAX } from './list-broadcasts';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const dateTimeRule = 'must be an ISO 8601 date-time with a time zone, e.g. 2026-03-01T09:00:00Z';

/** An ISO date-time in any zone, as the job index stores times (UTC, milliseconds), so bounds compare as text. */
const isoBound = v.optional(
  v.pipe(
    v.string(),
    v.regex(ISO_DATE_TIME, dateTimeRule),
    v.check((text) => !Number.isNaN(Date.parse(text)), dateTimeRule),
    v.transform((text) => new Date(text).toISOString()),
  ),
);

const limitRule = `must be a whole number from 1 to ${BROADCASTS_PAGE_MAX}`;

export const broadcastsQuerySchema = v.pipe(
  v.object({
    status: v.optional(v.picklist(JOB_STATUSES, `must be one of ${JOB_STATUSES.join(', ')}`)),
    from: isoBound,
    to: isoBound,
    limit: v.pipe(
      v.optional(v.string(), String(BROADCASTS_PAGE_DEFAULT)),
      v.regex(/^\d{1,3}$/, limitRule),
      v.transform(Number),
      v.minValue(1, limitRule),
      v.maxValue(BROADCASTS_PAGE_MAX, limitRule),
    ),
    // Opaque: its content is checked by the use case; here only its shape, so junk never reaches a decoder.
    cursor: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,512}$/, 'must be a nextCursor returned by this endpoint'))),
  }),
  v.forward(
    v.partialCheck([['from'], ['to']], ({ from, to }) => from === undefined || to === undefined || from <= to, 'must not be before from'),
    ['to'],
  ),
);

export type BroadcastsQueryInput = v.InferOutput<typeof broadcastsQuerySchema>;
