/**
 * Meta's webhooks in: the subscription handshake (GET) and signed event batches (POST), stored as
 * received on the metaEvents queue and answered at once; the delivery-events function applies them.
 * Once a POST is answered 200 its batch is on the queue (and from there on the dead-letter queue
 * at worst): an accepted event is never lost. Every other answer makes Meta retry (4xx/5xx).
 */
import { MetaAppNotConfiguredError, MetaEventsUnavailableError, WebhookPayloadTooLargeError, WebhookSignatureError, WebhookVerificationError } from './errors';
import { encodeMetaEventMessage } from './meta-event-message';
import { metaEventTenantOf } from './meta-event-tenant';
import { splitWebhookBatch } from './webhook-batch-split';
import type { MetaAppSecrets, MetaAppSecretSource, MetaEventQueue } from './ports';
import { constantTimeEquals, isValidWebhookSignature } from './webhook-signature';
import type { WebhookSourceGuard } from './webhook-source-guard';

/**
 * The largest body accepted: 4 MiB. Meta's batches reach 3 MB (../shared/meta/webhooks-and-limits.md).
 * API Gateway would pass up to 10 MB, but a Lambda proxy event is capped at 6 MB (a base64-encoded
 * body takes 4/3 of its size), so 4 MiB is the most every path carries; docs/DELIVERY-STATUS.md.
 */
export const MAX_WEBHOOK_BODY_BYTES = 4 * 1024 * 1024;

/** One metaEvents queue message: 256 KiB (SQS's classic limit, and every emulator's). A larger batch is split. */
export const MAX_META_EVENT_MESSAGE_BYTES = 256 * 1024;

/** The bytes a text takes inside a queue message (JSON-escaped, without its quotes): additive over concatenation. */
const escapedBytes = (text: string): number => Buffer.byteLength(JSON.stringify(text)) - 2;

export interface SubscriptionQuery {
  mode?: string;
  verifyToken?: string;
  challenge?: string;
}

/**
 * The handshake: `hub.mode=subscribe` and the configured verify token (constant-time) → the
 * challenge to echo. Anything else, also when no Meta app is configured, is refused alike.
 */
export async function verifyMetaSubscription(metaApp: MetaAppSecretSource, query: SubscriptionQuery): Promise<string> {
  const { mode, verifyToken, challenge } = query;
  if (mode !== 'subscribe' || !challenge || verifyToken === undefined) throw new WebhookVerificationError();
  const matches = (secrets: MetaAppSecrets | undefined) => secrets !== undefined && constantTimeEquals(verifyToken, secrets.verifyToken);
  if (!(await checkWithFreshRetry(metaApp, matches))) throw new WebhookVerificationError();
  return challenge;
}

export interface WebhookDelivery {
  /** The source address as API Gateway saw it (the source guard's key); absent: not guarded. */
  source?: string;
  /** The exact bytes Meta signed. */
  rawBody: Buffer;
  /** `X-Hub-Signature-256`, as received. */
  signature: string | undefined;
  receivedAt: Date;
}

/** What the intake uses: the app's settings, the queue, and (the endpoint's) source guard. */
export interface MetaEventIntakePorts {
  metaApp: MetaAppSecretSource;
  metaEvents: MetaEventQueue;
  webhookSources?: WebhookSourceGuard;
}

/**
 * Source guard → size cap → configured app → signature → stored on the queue, split into messages
 * that fit when the batch is larger than one (webhook-batch-split.ts). Nothing is stored unless all
 * pass; a batch answered 503 half-queued is delivered again whole, which the processor applies
 * idempotently. A source held back or outside the configured ranges is refused before its body is
 * hashed; an oversized or wrongly signed request counts as a refusal of its source.
 */
export async function acceptMetaEvents(ports: MetaEventIntakePorts, delivery: WebhookDelivery): Promise<{ parts: number }> {
  const { webhookSources: guard } = ports;
  const source = delivery.source;
  if (guard && source !== undefined) guard.admit(source, delivery.receivedAt);
  const refuse = (error: Error): never => {
    if (guard && source !== undefined) guard.recordRefusal(source, delivery.receivedAt);
    throw error;
  };
  if (delivery.rawBody.length > MAX_WEBHOOK_BODY_BYTES) refuse(new WebhookPayloadTooLargeError(MAX_WEBHOOK_BODY_BYTES));
  if (!(await ports.metaApp.load())) throw new MetaAppNotConfiguredError();
  const signedWith = (secrets: MetaAppSecrets | undefined) =>
    secrets !== undefined && isValidWebhookSignature(delivery.rawBody, delivery.signature, secrets.appSecret);
  if (!(await checkWithFreshRetry(ports.metaApp, signedWith))) refuse(new WebhookSignatureError());
  const envelope = Buffer.byteLength(encodeMetaEventMessage(delivery.receivedAt, ''));
  const parts = splitWebhookBatch(delivery.rawBody.toString('utf8'), { size: escapedBytes, budget: MAX_META_EVENT_MESSAGE_BYTES - envelope });
  if (!parts) throw new WebhookPayloadTooLargeError(MAX_META_EVENT_MESSAGE_BYTES);
  try {
    // In order, one at a time: a part refused stops the rest, and Meta delivers the whole again.
    for (const part of parts) await ports.metaEvents.send(encodeMetaEventMessage(delivery.receivedAt, part), metaEventTenantOf(part));
  } catch (error) {
    // Whatever the queue's fault, the batch is not (wholly) stored: 503, and Meta delivers it again.
    throw new MetaEventsUnavailableError('metaEvents queue refused the batch', { cause: error });
  }
  return { parts: parts.length };
}

/**
 * A check against the cached settings; when it fails, once more against a fresh read, so a secret
 * or token replaced a moment ago is honoured at once (only failing requests pay for the read).
 */
async function checkWithFreshRetry(metaApp: MetaAppSecretSource, check: (secrets: MetaAppSecrets | undefined) => boolean): Promise<boolean> {
  if (check(await metaApp.load())) return true;
  return check(await metaApp.load({ fresh: true }));
}
