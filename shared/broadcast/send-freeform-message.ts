/**
 * Queues one free-form message. It travels the same queue, worker and ledger as template
 * broadcasts (a job of one recipient, not exposed), so pacing, retries, exactly-once and the
 * recorded outcome (message id, or a failure code such as 131047 outside the 24-hour window)
 * are the same.
 */
import { CHUNK_SIZE } from './broadcast-job';
import { SenderNotOwnedError } from './errors';
import { freeformMessageBody } from './freeform-message-body';
import type { FreeformMessageRequest } from './freeform-message.schema';
import { opaqueId, type IdGenerator } from '../ports/id-generator';
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
  caller: { organizationId: string; boundPhoneNumber?: string },
  request: FreeformMessageRequest,
): Promise<{ jobId: string }> {
  if (caller.boundPhoneNumber && caller.boundPhoneNumber !== request.fromPhoneNumber) throw new SenderNotOwnedError(request.fromPhoneNumber);
  const sender = await dependencies.senders.resolveSender(caller.organizationId, request.fromPhoneNumber);
  const jobId = opaqueId(dependencies.ids, 'msg');
  await dependencies.broadcasts.createJob(
    {
      jobId,
      organizationId: caller.organizationId,
      broadcastName: `freeform:${request.type}`,
      exposed: false,
      wabaId: sender.wabaId,
      phoneNumberId: sender.phoneNumberId,
      fromPhoneNumber: sender.phoneNumber,
      template: { name: `freeform:${request.type}`, language: '', category: 'FREEFORM', id: '' },
      totalRecipients: 1,
      totalChunks: 1,
      chunkSize: CHUNK_SIZE,
      createdAt: dependencies.clock.now().toISOString(),
    },
    [1],
  );
  await dependencies.queue.enqueue([
    {
      kind: 'freeform',
      version: 1,
      jobId,
      organizationId: caller.organizationId,
      chunkIndex: 0,
      wabaId: sender.wabaId,
      phoneNumberId: sender.phoneNumberId,
      recipients: [[0, request.toPhoneNumber, []]],
      body: freeformMessageBody(request),
    },
  ]);
  return { jobId };
}
