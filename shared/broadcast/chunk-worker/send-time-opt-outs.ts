/**
 * The send-time opt-out check (docs/BROADCAST.md "Opt-outs at send time"). The accept path refuses
 * recipients already on the organization's list; a scheduled job, a job held by a template pause,
 * or a long job reaches its recipients minutes to days later, and a customer who wrote STOP (or
 * was added by the API) in between must not be sent to. So each invocation of the worker reads
 * the list once for its whole message, right before its first claim: one batched read per chunk
 * message (a Query of the list, or a BatchGet per 100 numbers; never one read per recipient), and
 * every recipient on it is claimed FAILED `OPTED_OUT` instead of being sent (recipient-send.ts).
 *
 * Free-form messages are not checked, as at accept time: one goes out only inside the
 * customer-service window, after the customer wrote (docs/ORGANIZATIONS-AND-V1.md "Opt-outs").
 */
import type { ChunkRecipient, OutboundMessage } from '../chunk-message';
import type { SuppressionList } from '../ports';

/** What the check reads: the invocation's message and the organization's list. */
export interface SendTimeCheckState {
  readonly dependencies: { readonly optOuts: SuppressionList };
  readonly message: OutboundMessage;
}

/** One read per invocation state (a chunk run), shared by its lanes; gone with the state. */
const readings = new WeakMap<SendTimeCheckState, Promise<ReadonlySet<string>>>();

/**
 * The numbers of the message's recipients on the list now, read on the first call for `state`
 * (the lanes' later calls wait for that one read). A failed read fails each recipient's send
 * before its claim: the message is retried, nobody is sent unchecked.
 */
function optedOutOf(state: SendTimeCheckState): Promise<ReadonlySet<string>> {
  let reading = readings.get(state);
  if (!reading) {
    const { message } = state;
    reading = state.dependencies.optOuts.suppressedAmong(
      message.organizationId,
      message.recipients.map(({ to }) => to),
    );
    readings.set(state, reading);
  }
  return reading;
}

/**
 * Whether `recipient` is on the organization's list at send time (template chunks only).
 *
 * @example
 * if (await optedOutAtSendTime(run, recipient)) { ... } // claim it FAILED OPTED_OUT, never send it
 */
export async function optedOutAtSendTime(state: SendTimeCheckState, recipient: ChunkRecipient): Promise<boolean> {
  if (state.message.kind !== 'template-chunk') return false;
  return (await optedOutOf(state)).has(recipient.to);
}
