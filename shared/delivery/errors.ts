/** Errors of the delivery-event processor. None reaches an HTTP client: the processor is a queue consumer. */

/** Events of /upstream sends whose send record is not written yet (the wrapper writes it just after Meta answers). */
export class SendRecordNotYetWrittenError extends Error {
  override readonly name = 'SendRecordNotYetWrittenError';
  readonly code = 'SEND_RECORD_NOT_YET_WRITTEN';
  constructor(readonly events: number) {
    super(`${events} status event(s) of /upstream sends found no send record yet; the batch is retried`);
  }
}
