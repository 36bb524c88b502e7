/**
 * Query of GET /audit-log. Messages state the rule; shared/http/validation.ts prefixes the field
 * (`limit must be …`).
 */
import * as v from 'valibot';
import { AUDIT_LOG_PAGE_DEFAULT, AUDIT_LOG_PAGE_MAX } from './list-audit-log';

const limitRule = `must be a whole number from 1 to ${AUDIT_LOG_PAGE_MAX}`;

export const auditLogQuerySchema = v.object({
  // A person's personId (psn_…), a credential's id, or operator:<name>.
  actorId: v.optional(
    v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:@-]{1,128}$/, 'must be a personId or a credentialId (letters, digits, _ . : @ -, at most 128)')),
  ),
  action: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/, 'must be an operation name such as launchCampaign'))),
  limit: v.pipe(
    v.optional(v.string(), String(AUDIT_LOG_PAGE_DEFAULT)),
    v.regex(/^\d{1,3}$/, limitRule),
    v.transform(Number),
    v.minValue(1, limitRule),
    v.maxValue(AUDIT_LOG_PAGE_MAX, limitRule),
  ),
  // Opaque: its content is checked by the log; here only its shape, so junk never reaches a decoder.
  cursor: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,1024}$/, 'must be a nextCursor returned by this endpoint'))),
});

export type AuditLogQueryInput = v.InferOutput<typeof auditLogQuerySchema>;
