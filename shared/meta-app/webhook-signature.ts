/**
 * Meta signs every webhook POST: `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw
 * request body keyed with the app secret. The comparison is constant-time (`timingSafeEqual` over
 * the two 32-byte digests), so the answer time says nothing about how much of a guess was right.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE_HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/** The header value Meta would send for this body (the sandbox, tests and the bench sign with it). */
export function signWebhookBody(body: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** True only for a well-formed header carrying the body's HMAC under `appSecret`. */
export function isValidWebhookSignature(body: Buffer, header: string | undefined, appSecret: string): boolean {
  const match = SIGNATURE_HEADER.exec(header?.trim() ?? '');
  if (!match) return false;
  const presented = Buffer.from(match[1]!, 'hex');
  const expected = createHmac('sha256', appSecret).update(body).digest();
  return timingSafeEqual(presented, expected);
}

/**
 * Constant-time equality of two strings of any lengths: their SHA-256 digests are compared, so
 * neither the position of the first difference nor the length of the secret leaks.
 */
export function constantTimeEquals(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
