/** The Idempotency-Key header every keyed write reads (broadcasts, follow-ups, audience member imports, campaign launches): docs/BROADCAST.md "Idempotency". */
import { InvalidIdempotencyKeyError } from './errors';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's Idempotency-Key: 1 to 255 printable ASCII characters, else InvalidIdempotencyKeyError (400).
 *
 * @example
 * idempotencyKeyOf({ 'idempotency-key': 'import-2026-05-04' }); // 'import-2026-05-04'
 * idempotencyKeyOf({}); // undefined
 */
export function idempotencyKeyOf(headers: Record<string, string | undefined>): string | undefined {
  const idempotencyKey = headers['idempotency-key'];
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) throw new InvalidIdempotencyKeyError();
  return idempotencyKey;
}
