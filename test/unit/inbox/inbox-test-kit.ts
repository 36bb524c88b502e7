import { fixedClock } from '../../../shared/ports/clock';
import { sequentialIdGenerator } from '../../../shared/ports/id-generator';
import { bindInboxServices } from '../../../shared/inbox/inbox-services';
import type { ConversationPorts } from '../../../shared/inbox/conversation-use-cases';
import { InMemoryInboxRepository } from '../../support/in-memory-inbox-repository';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';

export const senderA = '15550100001';
export const senderB = '15550100002';

/** Inbox services over the in-memory repository; org_a owns senders A and B, org_b owns none of them. */
export function createInboxTestKit(start = '2026-03-02T09:00:00.000Z') {
  const repository = new InMemoryInboxRepository();
  const optOuts = new InMemoryOptOutRepository();
  const clock = fixedClock(start);
  const senderNumbers: Record<string, string[]> = { org_a: [senderA, senderB], org_b: ['15550200001'] };
  const ports: ConversationPorts = {
    inbox: repository,
    clock,
    ids: sequentialIdGenerator(),
    senders: { listSenderPhoneNumbers: async (organizationId) => senderNumbers[organizationId] ?? [] },
  };
  return { repository, optOuts, clock, ports, services: bindInboxServices({ ...ports, optOuts }) };
}
