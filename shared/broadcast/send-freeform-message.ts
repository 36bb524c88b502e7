/**
 * Queues one free-form message. It travels the same queue, worker and ledger as template
 * broadcasts (a job of one recipient, not exposed), so pacing, retries, exactly-once and the
 * recorded outcome (message id, or a failure code such as 131047 outside the 24-hour window)
 * are the same.
 */
import { requireOperationInScope, requireSenderInScope, type ScopedCaller } from './key-scope';
import { freeformMessageBody } from './freeform-message-body';
import type { FreeformMessageRequest } from './freeform-message.schema';
import { newJob, newJobId, recordAndFanOut } from './job-fan-out';
import type { IdGenerator } from '../ports/id-generator';
import type { BroadcastRepository, Clock, OutboundQueue, SenderDirectory } from './ports';

export interface SendFreeformDependencies {
  senders: SenderDirectory;
  broadcasts: BroadcastRepository;
  queue: OutboundQueue;
  clock: Clock;
  ids: IdGenerator;
}

export async function sendFreeformMessage(
  dependencies: SendFreeformDependencies,
  caller: ScopedCaller,
  request: FreeformMessageRequest,
): Promise<{ jobId: string }> {
  requireOperationInScope(caller, 'send-freeform');
  requireSenderInScope(caller, request.fromPhoneNumber);
  const sender = await dependencies.senders.resolveSender(caller.organizationId, request.fromPhoneNumber);
  const job = newJob(
    { kind: 'freeform', messageType: request.type },
    { jobId: newJobId(dependencies.ids, 'freeform'), organizationId: caller.organizationId, sender, totalRecipients: 1, exposed: false, now: dependencies.clock.now(), createdByCredentialId: caller.credentialId },
  );
  await recordAndFanOut(dependencies, { job, to: request.toPhoneNumber, body: freeformMessageBody(request) });
  return { jobId: job.jobId };
}
