/**
 * The customerEvents queue's message: one delivery of one event to one endpoint. A retry is the
 * same message with `attempts` counted up, sent again with a delay; `firstAttemptAt` bounds the retries.
 */
import * as v from 'valibot';
import { CUSTOMER_EVENT_TYPES, type CustomerEvent } from './ports';
import { MalformedDeliveryMessageError } from './errors';

export interface CustomerEventDelivery {
  version: 1;
  organizationId: string;
  endpointId: string;
  event: CustomerEvent;
  /** ISO time the delivery was first queued: the retry window counts from it. */
  firstAttemptAt: string;
  /** Attempts already made (0 on the first message). */
  attempts: number;
  /**
   * Times it was re-queued because its endpoint's concurrency slots were all taken (absent: never):
   * the next such wait grows with it, so a busy endpoint's backlog spreads out instead of cycling
   * through the queue every second (docs/CUSTOMER-WEBHOOKS.md "Fairness").
   */
  deferrals?: number;
}

const deliverySchema = v.object({
  version: v.literal(1),
  organizationId: v.pipe(v.string(), v.minLength(1)),
  endpointId: v.pipe(v.string(), v.minLength(1)),
  event: v.object({
    id: v.pipe(v.string(), v.minLength(1)),
    type: v.picklist([...CUSTOMER_EVENT_TYPES, 'webhook.test']),
    createdAt: v.string(),
    data: v.record(v.string(), v.unknown()),
  }),
  firstAttemptAt: v.pipe(v.string(), v.isoTimestamp()),
  attempts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  deferrals: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

export const encodeDelivery = (delivery: CustomerEventDelivery): string => JSON.stringify(delivery);

export function decodeDelivery(body: string): CustomerEventDelivery {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new MalformedDeliveryMessageError('customer event delivery is not JSON');
  }
  const result = v.safeParse(deliverySchema, parsed);
  if (!result.success) throw new MalformedDeliveryMessageError(`customer event delivery does not match its schema: ${v.summarize(result.issues)}`);
  return result.output as CustomerEventDelivery;
}
