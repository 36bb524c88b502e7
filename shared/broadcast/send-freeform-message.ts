/**
 * Queues one free-form message. It travels the same queue, worker and ledger as template
 * broadcasts (a job of one recipient, not exposed), so pacing, retries, exactly-once and the
 * recorded outcome (message id, or a failure code such as 131047 outside the 24-hour window)
 * are the same.
 *
 * A recipient whose customer-service window is known to be closed is refused before anything is
 * recorded or sent (OutsideServiceWindowError). Known closed: the recipient's latest message to this
 * sender, as recorded from Meta's webhooks, is 24 hours old or older. Nothing recorded is unknown,
 * not closed (records start when the webhook does; docs/FREEFORM-AND-EARLIER.md): such a message is
 * sent, and Meta refuses it with 131047 if the window is in fact closed.
 */
import { OutsideServiceWindowError } from './errors';
import { requireOperationInScope, requireSenderInScope, type ScopedCaller } from './key-scope';
import { freeformMessageBody } from './freeform-message-body';
import { freeformRecipientKeyOf, type FreeformMessageRequest } from './freeform-message.schema';
import { newJob, newJobId, recordAndFanOut } from './job-fan-out';
import type { IdGenerator } from '../ports/id-generator';
import type { ChunkProgressStore, Clock, JobControlStore, JobStore, OutboundQueue, RecipientLedger, SenderDirectory, ServiceWindow } from './ports';

/** WhatsApp's customer-service window: free-form messages only within 24 hours of the customer's last message. */
export const serviceWindowMs = 24 * 3600 * 1000;

/** Closed only when a recorded last message is at least 24 hours old; no record is unknown (false). */
export const isServiceWindowKnownClosed = (lastInboundAt: Date | undefined, now: Date): boolean =>
  lastInboundAt !== undefined && now.getTime() - lastInboundAt.getTime() >= serviceWindowMs;

export interface SendFreeformDependencies {
  senders: SenderDirectory;
  /** JobControlStore: a job whose queueing failed part-way is cancelled (job-fan-out.ts). */
  broadcasts: JobStore & JobControlStore & RecipientLedger & ChunkProgressStore;
  queue: OutboundQueue;
  clock: Clock;
  ids: IdGenerator;
  serviceWindow: ServiceWindow;
}

export async function sendFreeformMessage(
  dependencies: SendFreeformDependencies,
  caller: ScopedCaller,
  request: FreeformMessageRequest,
): Promise<{ jobId: string }> {
  requireOperationInScope(caller, 'send-freeform');
  requireSenderInScope(caller, request.fromPhoneNumber);
  const sender = await dependencies.senders.resolveSender(caller.organizationId, request.fromPhoneNumber);
  const now = dependencies.clock.now();
  const to = freeformRecipientKeyOf(request);
  // Inbound messages are recorded by number and by BSUID (and their pair): a key never heard from is unknown, not closed.
  const lastInboundAt = await dependencies.serviceWindow.lastInboundAt(caller.organizationId, sender.phoneNumber, to);
  if (isServiceWindowKnownClosed(lastInboundAt, now)) throw new OutsideServiceWindowError();
  const job = newJob(
    { kind: 'freeform', messageType: request.type },
    {
      jobId: newJobId(dependencies.ids, 'freeform'),
      organizationId: caller.organizationId,
      sender,
      totalRecipients: 1,
      exposed: false,
      now,
      createdByCredentialId: caller.credentialId,
    },
  );
  await recordAndFanOut(dependencies, { job, to, body: freeformMessageBody(request) });
  return { jobId: job.jobId };
}
