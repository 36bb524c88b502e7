/**
 * Query of GET /broadcasts/{jobId}/recipients. Messages state the rule; shared/http/validation.ts
 * prefixes the field (`status must be one of …`).
 */
import * as v from 'valibot';
import { RECIPIENT_STATUSES } from '../delivery/recipient-status';
import { RECIPIENTS_PAGE_DEFAULT, RECIPIENTS_PAGE_MAX } from './list-recipients';

export const recipientsQuerySchema = v.object({
  status: v.optional(v.picklist(RECIPIENT_STATUSES, `must be one of ${RECIPIENT_STATUSES.join(', ')}`)),
  limit: v.pipe(
    v.optional(v.string(), String(RECIPIENTS_PAGE_DEFAULT)),
    v.regex(/^\d{1,4}$/, `must be a whole number from 1 to ${RECIPIENTS_PAGE_MAX}`),
    v.transform(Number),
    v.minValue(1, `must be a whole number from 1 to ${RECIPIENTS_PAGE_MAX}`),
    v.maxValue(RECIPIENTS_PAGE_MAX, `must be a whole number from 1 to ${RECIPIENTS_PAGE_MAX}`),
  ),
  // Opaque: its content is checked by the use case; here only its shape, so junk never reaches a decoder.
  cursor: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,512}$/, 'must be a nextCursor returned by this endpoint'))),
  format: v.optional(v.picklist(['json', 'csv'], 'must be json or csv')),
});

export type RecipientsQueryInput = v.InferOutput<typeof recipientsQuerySchema>;
