/**
 * Signatures of deliveries: `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 *
 * `verifyCustomerEvent` is, line for line, the Node snippet docs/CUSTOMER-WEBHOOKS.md gives customers
 * ("Signature"); test/unit/customer-events/signing.test.ts runs the documented snippet itself against
 * this code, so the two cannot drift apart.
 */
import crypto from 'node:crypto';
import { customerEventBody } from './event-envelope';
import type { CustomerEvent } from './ports';

export const SIGNATURE_HEADER = 'X-Webhook-Signature';
export const EVENT_ID_HEADER = 'X-Webhook-Id';
export const WEBHOOK_USER_AGENT = 'WhatsApp-Broadcast-Platform-Webhooks/1';
/** Receivers refuse a signature older (or newer) than this: a captured delivery cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface SignedDelivery {
  /** The raw body, exactly as signed: send these bytes. */
  body: string;
  headers: Record<string, string>;
}

/** The body and headers of one delivery attempt; each attempt is signed anew (a fresh `t`), the id stays. */
export function signCustomerEvent(secret: string, event: CustomerEvent, now: Date): SignedDelivery {
  const body = customerEventBody(event);
  const timestamp = Math.floor(now.getTime() / 1000);
  const signature = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      [EVENT_ID_HEADER]: event.id,
      [SIGNATURE_HEADER]: `t=${timestamp},v1=${signature}`,
    },
  };
}

export type ReceivedHeaders = Readonly<Record<string, string | string[] | undefined>>;

// ---- same as the documented snippet (docs/CUSTOMER-WEBHOOKS.md, "Signature"), types added ----
export function verifyCustomerEvent(
  secret: string,
  headers: ReceivedHeaders,
  rawBody: string | Buffer,
  now: Date = new Date(),
  toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const header = String(headers['x-webhook-signature'] || '');
  const parts = Object.fromEntries(header.split(',').map((part) => part.trim().split('=')));
  const timestamp = Number(parts.t);
  if (!/^\d+$/.test(parts.t || '') || !/^[0-9a-f]{64}$/.test(parts.v1 || '')) return false;
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > toleranceSeconds) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'));
}
// ---- end of the documented snippet ----
