/**
 * `biz_opaque_callback_data`: what every outbound send carries so that Meta's status events can be
 * matched to the send's ledger entry even when the send's own outcome was unknown (timeout, 502),
 * when no message id was ever recorded. Meta echoes it in sent / delivered / read / failed events.
 *
 *   b1:<jobId>:<chunkIndex>:<index>   a recipient of a broadcast-ledger job (broadcast, free-form,
 *                                     send-single, send-bulk): LEDGER#<jobId>#<chunk> / R#<index>
 *   u1:<sendId>                       one /upstream send (messages, marketing messages, bulk)
 *
 * Nothing secret: ids only, which are useless without the organization's credentials. The platform
 * always sets it (the /upstream wrapper keeps a caller's own value in its send record), so an event's
 * callback data was written by us; an event still only touches records of the organization that owns
 * its phone number (apply-webhook-batch.ts). Meta allows 512 characters; these stay under 80.
 */
export const MAX_CALLBACK_DATA_LENGTH = 512;

export type CallbackReference = { kind: 'ledger'; jobId: string; chunkIndex: number; index: number } | { kind: 'upstream-send'; sendId: string };

const ID = '[A-Za-z0-9_-]{1,64}';
const LEDGER_PATTERN = new RegExp(`^b1:(${ID}):(\\d{1,5}):(\\d{1,5})$`);
const UPSTREAM_PATTERN = new RegExp(`^u1:(${ID})$`);

export function callbackDataOf(reference: CallbackReference): string {
  const data = reference.kind === 'ledger' ? `b1:${reference.jobId}:${reference.chunkIndex}:${reference.index}` : `u1:${reference.sendId}`;
  if (parseCallbackData(data) === undefined) throw new TypeError(`Not a valid callback reference: ${JSON.stringify(reference)}`);
  return data;
}

/** Undefined for anything we did not write (absent, another format, or a caller's own value). */
export function parseCallbackData(data: unknown): CallbackReference | undefined {
  if (typeof data !== 'string' || data.length > MAX_CALLBACK_DATA_LENGTH) return undefined;
  const ledger = LEDGER_PATTERN.exec(data);
  if (ledger) return { kind: 'ledger', jobId: ledger[1]!, chunkIndex: Number(ledger[2]), index: Number(ledger[3]) };
  const upstream = UPSTREAM_PATTERN.exec(data);
  if (upstream) return { kind: 'upstream-send', sendId: upstream[1]! };
  return undefined;
}
