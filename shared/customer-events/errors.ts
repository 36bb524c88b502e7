/** Errors of customer event callbacks (issue 12): delivery, registration and management. No HTTP here: shared/http/error-responses.ts maps them. */

/** A queue message that is not a delivery: it can never succeed, SQS moves it to the dead-letter queue. */
export class MalformedDeliveryMessageError extends Error {
  override readonly name = 'MalformedDeliveryMessageError';
  readonly code = 'MALFORMED_DELIVERY_MESSAGE';
}

/** Why one delivery attempt failed, in words safe to log (no URL, no body). */
export type DeliveryFailureReason = 'FORBIDDEN_ADDRESS' | 'INSECURE_URL' | 'TIMEOUT' | 'CONNECTION_FAILED' | 'INVALID_URL';

/** An attempt that got no HTTP answer (refused address, timeout, network). A non-2xx answer is not an error. */
export class WebhookDeliveryError extends Error {
  override readonly name = 'WebhookDeliveryError';
  readonly code = 'WEBHOOK_DELIVERY_FAILED';
  constructor(
    readonly reason: DeliveryFailureReason,
    message: string,
  ) {
    super(message);
  }
}

/* Registration and management of endpoints. */

/** The url breaks a rule (absolute, https, no credentials, length); the message names the rule. */
export class InvalidWebhookUrlError extends Error {
  override readonly name = 'InvalidWebhookUrlError';
  readonly code = 'INVALID_WEBHOOK_URL';
}

/** The url's host is, or resolves to, an address webhooks may not reach (private, loopback, metadata…). */
export class WebhookAddressNotAllowedError extends Error {
  override readonly name = 'WebhookAddressNotAllowedError';
  readonly code = 'WEBHOOK_ADDRESS_NOT_ALLOWED';
  constructor(readonly category: string) {
    super(`url host resolves to a ${category} address; webhooks may only reach public addresses`);
  }
}

/** DNS gave no address for the url's host. */
export class WebhookHostUnresolvableError extends Error {
  override readonly name = 'WebhookHostUnresolvableError';
  readonly code = 'WEBHOOK_HOST_UNRESOLVABLE';
  constructor() {
    super('url host does not resolve to any address (or DNS could not answer; retry later)');
  }
}

export class WebhookEndpointLimitError extends Error {
  override readonly name = 'WebhookEndpointLimitError';
  readonly code = 'WEBHOOK_ENDPOINT_LIMIT';
  constructor(readonly limit: number) {
    super(`An organization may register at most ${limit} webhook endpoints; delete one first`);
  }
}

/** Unknown, or another organization's: the same answer, so ids of others cannot be probed. */
export class WebhookEndpointNotFoundError extends Error {
  override readonly name = 'WebhookEndpointNotFoundError';
  readonly code = 'WEBHOOK_ENDPOINT_NOT_FOUND';
  constructor() {
    super('Webhook endpoint not found');
  }
}

/** The event id names no event of the organization's log (unknown, another's, or older than the log keeps). */
export class CustomerEventNotFoundError extends Error {
  override readonly name = 'CustomerEventNotFoundError';
  readonly code = 'CUSTOMER_EVENT_NOT_FOUND';
  constructor() {
    super('Event not found in the event log of this organization');
  }
}

/** A redelivery time range that is inverted, too long or holds too many events. */
export class RedeliveryRangeError extends Error {
  override readonly name = 'RedeliveryRangeError';
  readonly code = 'REDELIVERY_RANGE';
}

/** Keys bound to one sender (or minted by generate-key) may not manage the organization's endpoints. */
export class WebhookManagementOutsideKeyScopeError extends Error {
  override readonly name = 'WebhookManagementOutsideKeyScopeError';
  readonly code = 'WEBHOOK_MANAGEMENT_OUTSIDE_KEY_SCOPE';
  constructor() {
    super('Only organization API keys (not bound to a sender number) may manage webhook endpoints');
  }
}

/** The organization's redeliveries of the day (UTC) would pass its daily quota; nothing was queued. */
export class RedeliveryQuotaExceededError extends Error {
  override readonly name = 'RedeliveryQuotaExceededError';
  readonly code = 'REDELIVERY_QUOTA_EXCEEDED';
  constructor(
    readonly limitPerDay: number,
    readonly used: number,
    readonly requested: number,
    readonly resetsAt: Date,
    /** Seconds until the quota resets (the answer's Retry-After). */
    readonly retryAfterSeconds: number,
  ) {
    super(
      `Redelivery quota exceeded: an organization may redeliver at most ${limitPerDay.toLocaleString('en-US')} events per day (UTC); ` +
        `${used.toLocaleString('en-US')} already redelivered today, this request would add ${requested.toLocaleString('en-US')}. ` +
        `The quota resets at ${resetsAt.toISOString()}`,
    );
  }
}
