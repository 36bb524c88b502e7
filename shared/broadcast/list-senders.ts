import { boundSenderOf, requireOperationInScope, type ScopedCaller } from './key-scope';
import type { Sender, SenderDirectory } from './ports';

/** A key bound to one sender sees only that sender; a key minted by generate-key may not list senders. */
export async function listSenders(senders: SenderDirectory, caller: ScopedCaller): Promise<Sender[]> {
  requireOperationInScope(caller, 'list-phone-numbers');
  const all = await senders.listSenders(caller.organizationId);
  const bound = boundSenderOf(caller);
  return bound === undefined ? all : all.filter((sender) => sender.phoneNumber === bound);
}
