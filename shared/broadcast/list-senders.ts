import type { Sender, SenderDirectory } from './ports';

/** A key bound to one sender sees only that sender. */
export async function listSenders(senders: SenderDirectory, organizationId: string, boundPhoneNumber?: string): Promise<Sender[]> {
  const all = await senders.listSenders(organizationId);
  return boundPhoneNumber ? all.filter((sender) => sender.phoneNumber === boundPhoneNumber) : all;
}
