/**
 * Bodies of the webhook routes (and the admin CLI's flags, parsed into the same shapes). Shape
 * only: the url's rules (scheme, credentials, addresses) are the registration use case's, so the
 * CLI and the route refuse the same urls.
 */
import * as v from 'valibot';
import { CUSTOMER_EVENT_TYPES } from './ports';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

const hasNoDuplicates = (values: readonly string[]): boolean => new Set(values).size === values.length;

export const endpointRegistrationSchema = v.object({
  url: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH.toLocaleString('en-US')} characters`),
  ),
  events: v.pipe(
    v.array(v.picklist(CUSTOMER_EVENT_TYPES, `must be one of ${CUSTOMER_EVENT_TYPES.join(', ')}`)),
    v.minLength(1, 'must list at least one event type'),
    v.check((events) => hasNoDuplicates(events), 'must not list an event type twice'),
  ),
});

export type EndpointRegistration = v.InferOutput<typeof endpointRegistrationSchema>;

const timestamp = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp (e.g. 2026-01-31T12:00:00Z)'));

/** `{ "eventId": "…" }` or `{ "from": iso, "to": iso }`, not both. */
export const redeliverySchema = v.pipe(
  v.object({
    eventId: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(128, 'must be at most 128 characters'))),
    from: v.optional(timestamp),
    to: v.optional(timestamp),
  }),
  v.check(
    (body) => (body.eventId !== undefined) !== (body.from !== undefined || body.to !== undefined),
    'must give either eventId or a time range (from and to), not both',
  ),
  v.check((body) => body.eventId !== undefined || (body.from !== undefined && body.to !== undefined), 'must give both from and to for a time range'),
);

export type RedeliveryRequest = { eventId: string } | { from: Date; to: Date };

/** The parsed body as the use case takes it. */
export function redeliveryRequestOf(body: v.InferOutput<typeof redeliverySchema>): RedeliveryRequest {
  return body.eventId !== undefined ? { eventId: body.eventId } : { from: new Date(body.from!), to: new Date(body.to!) };
}
