/** The Idempotency-Key header every accept reads (broadcasts, follow-ups, campaign launches): docs/BROADCAST.md "Idempotency". */
import { InvalidIdempotencyKeyError } from './errors';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's Idempotency-Key (1 to 255 printable ASCII characters, else InvalidIdempotencyKeyError: a 400).
 *
 * @example
 * idempotencyKeyOf({ 'idempotency-key': 'launch-1' }); // 'launch-1'
 * idempotencyKeyOf({}); // undefined
 */
export function idempotencyKeyOf(headers: Record<string, string | undefined>): string | undefined {
  const idempotencyKey = headers['idempotency-key'];
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) throw new InvalidIdempotencyKeyError();
  return idempotencyKey;
}
