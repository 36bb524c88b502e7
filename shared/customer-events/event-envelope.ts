/**
 * The envelope every customer event travels in: `{ id, type, createdAt, data }`. The id is what a
 * receiver dedupes on, so an event that can be produced twice (Meta redelivers a webhook batch, a
 * worker retries) gets an id derived from what it is about, not from when it was made.
 */
import { randomBytes } from 'node:crypto';
import { sha256 } from '../crypto/hashing';
import type { CustomerEvent, CustomerEventType } from './ports';

const ID_PREFIX = 'evt_';
/** 20 bytes: 160 bits, base64url without padding. */
const ID_BYTES = 20;

/**
 * `evt_` + a hash of the type and the source key when there is one (the same fact always yields the
 * same id), random otherwise. A source key names the fact, e.g. `<jobId>:<recipient index>:<status>`
 * for `message.status`, `<jobId>` for `job.completed`, Meta's message id for `message.received`.
 */
export function customerEventId(type: CustomerEventType, sourceKey?: string): string {
  const bytes = sourceKey === undefined ? randomBytes(ID_BYTES) : sha256(`${type}\n${sourceKey}`).subarray(0, ID_BYTES);
  return `${ID_PREFIX}${bytes.toString('base64url')}`;
}

export interface NewCustomerEvent {
  type: CustomerEventType;
  data: Record<string, unknown>;
  /** When it happened on the platform. */
  createdAt: Date;
  /** What makes the event unique; same key, same id (see customerEventId). */
  sourceKey?: string;
}

export function newCustomerEvent(event: NewCustomerEvent): CustomerEvent {
  return {
    id: customerEventId(event.type, event.sourceKey),
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    data: event.data,
  };
}

/** The exact bytes POSTed (and signed): one event per request, no batching. */
export const customerEventBody = (event: CustomerEvent): string =>
  JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt, data: event.data });
