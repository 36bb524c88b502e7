/** Errors of customer event delivery (issue 12). */

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
