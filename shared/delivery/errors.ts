/** Errors of the delivery-event processor. None reaches an HTTP client: the processor is a queue consumer. */

/** Events of /upstream sends whose send record is not written yet (the wrapper writes it just after Meta answers). */
export class SendRecordNotYetWrittenError extends Error {
  override readonly name = 'SendRecordNotYetWrittenError';
  readonly code = 'SEND_RECORD_NOT_YET_WRITTEN';
  constructor(readonly events: number) {
    super(`${events} status event(s) of /upstream sends found no send record yet; the batch is retried`);
  }
}

/**
 * Every webhook batch of a queue delivery failed: the invocation fails (counted in the function's
 * Errors, as a store outage should be) and the queue delivers them all again.
 */
export class AllWebhookBatchesFailedError extends Error {
  override readonly name = 'AllWebhookBatchesFailedError';
  readonly code = 'ALL_WEBHOOK_BATCHES_FAILED';
  constructor(
    readonly batches: number,
    options?: { cause?: unknown },
  ) {
    super(`All records failed: ${batches} webhook batch(es) of this delivery will be received again`, options);
  }
}
