/**
 * Meta's webhooks in: the subscription handshake (GET) and signed event batches (POST), stored as
 * received on the metaEvents queue and answered at once; the delivery-events function applies them.
 * Once a POST is answered 200 its batch is on the queue (and from there on the dead-letter queue
 * at worst): an accepted event is never lost. Every other answer makes Meta retry (4xx/5xx).
 */
import { MetaAppNotConfiguredError, MetaEventsUnavailableError, WebhookPayloadTooLargeError, WebhookSignatureError, WebhookVerificationError } from './errors';
import { encodeMetaEventMessage } from './meta-event-message';
import type { MetaAppSecrets, MetaAppSecretSource, MetaEventQueue } from './ports';
import { constantTimeEquals, isValidWebhookSignature } from './webhook-signature';

/**
 * 256 KiB: one SQS message (the limit of every emulator). It caps the raw body and the queue
 * message made of it (the body JSON-escaped plus ~70 bytes), so every accepted batch fits.
 */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

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
  /** The exact bytes Meta signed. */
  rawBody: Buffer;
  /** `X-Hub-Signature-256`, as received. */
  signature: string | undefined;
  receivedAt: Date;
}

/** Size cap → configured app → signature → stored on the queue. Nothing is stored unless all pass. */
export async function acceptMetaEvents(ports: { metaApp: MetaAppSecretSource; metaEvents: MetaEventQueue }, delivery: WebhookDelivery): Promise<void> {
  if (delivery.rawBody.length > MAX_WEBHOOK_BODY_BYTES) throw new WebhookPayloadTooLargeError(MAX_WEBHOOK_BODY_BYTES);
  if (!(await ports.metaApp.load())) throw new MetaAppNotConfiguredError();
  const signedWith = (secrets: MetaAppSecrets | undefined) =>
    secrets !== undefined && isValidWebhookSignature(delivery.rawBody, delivery.signature, secrets.appSecret);
  if (!(await checkWithFreshRetry(ports.metaApp, signedWith))) throw new WebhookSignatureError();
  const message = encodeMetaEventMessage(delivery.receivedAt, delivery.rawBody.toString('utf8'));
  if (Buffer.byteLength(message) > MAX_WEBHOOK_BODY_BYTES) throw new WebhookPayloadTooLargeError(MAX_WEBHOOK_BODY_BYTES);
  try {
    await ports.metaEvents.send(message);
  } catch (error) {
    // Whatever the queue's fault, the batch is not stored: 503, and Meta delivers it again.
    throw new MetaEventsUnavailableError('metaEvents queue refused the batch', { cause: error });
  }
}


/**
 * A check against the cached settings; when it fails, once more against a fresh read, so a secret
 * or token replaced a moment ago is honoured at once (only failing requests pay for the read).
 */
async function checkWithFreshRetry(metaApp: MetaAppSecretSource, check: (secrets: MetaAppSecrets | undefined) => boolean): Promise<boolean> {
  if (check(await metaApp.load())) return true;
  return check(await metaApp.load({ fresh: true }));
}
