/**
 * A user changed number (Meta's `user_changed_number` / `user_changed_user_id` system messages,
 * ../shared/meta/usernames-and-bsuid.md §4): Meta gave them a new BSUID (and parent BSUID), and the
 * new number when it may be shown. The person is the same, so what the platform knew under the old
 * ids carries to the new ones (docs/ORGANIZATIONS-AND-V1.md "Identity changes"):
 *
 * - the opt-out: the one decision of the old ids' records (the previous BSUID, parent BSUID and
 *   number, and the number the contact book paired the previous BSUID with; `carriedChangeOf`) is
 *   applied to each new id, each on its own record, so a STOP or an API opt-out keeps the user off
 *   every later broadcast naming the new ids (a START carries as a START, a newer one under the new
 *   ids wins by Meta's time). The old ids keep their entries: a number Meta may give someone else is
 *   not lifted by a change the business did not make.
 * - the contact: the contact holding an old id claims the new BSUID and number and shows them
 *   (`addContactIdentity` with `replace`); its conversations stay its own, so the 24-hour window
 *   (service-window.ts reads the contact holding the key) carries to the new ids. When another
 *   contact already holds a new id (the user wrote under the new ids first), that id stays with it.
 *
 * Idempotent (a redelivered batch applies it again to the same end); a system message is not the
 * user writing, so it opens no window of its own.
 */
import { isOptedOut } from './opt-out-record';
import { carriedChangeOf } from './identity-pairs';
import type { OptOutPorts } from './opt-outs';
import type { ContactIdentity } from './ports';
import { claimFor, existingContactOf, type RecordInboundPorts } from './record-inbound-message';

/** One identity of a user as Meta names it: the BSUID, the parent BSUID, the number (each when given). */
export interface UserIds {
  userId?: string;
  parentUserId?: string;
  phoneNumber?: string;
}

export interface IdentityChange {
  organizationId: string;
  previous: UserIds;
  current: UserIds & { userId: string };
}

/** `optOuts` absent (no opt-out list composed): only the contact is re-keyed. */
export type IdentityChangePorts = Partial<Pick<OptOutPorts, 'optOuts' | 'contactBook'>> & Pick<OptOutPorts, 'clock'> & Pick<RecordInboundPorts, 'inbox'>;

const idsOf = (ids: UserIds): string[] => [ids.userId, ids.parentUserId, ids.phoneNumber].filter((id): id is string => id !== undefined);

/**
 * Carries the user's opt-out and contact from the previous ids to the new ones. `optedOut`: the
 * old ids were on the list, so the new ones now are.
 *
 * @example
 * await applyIdentityChange(ports, { organizationId: 'org_1', previous: { userId: 'US.old', phoneNumber: '15550100001' }, current: { userId: 'US.new', phoneNumber: '15550100002' } });
 */
export async function applyIdentityChange(ports: IdentityChangePorts, change: IdentityChange): Promise<{ optedOut: boolean }> {
  const { organizationId, previous, current } = change;
  const currentIds = idsOf(current);
  const pairedPhone = previous.userId === undefined ? undefined : (await ports.contactBook?.pairOf(organizationId, previous.userId))?.phoneNumber;
  const previousIds = [...new Set([...idsOf(previous), ...(pairedPhone === undefined ? [] : [pairedPhone])])].filter((id) => !currentIds.includes(id));
  if (previousIds.length === 0) return { optedOut: false };

  const optedOut = ports.optOuts ? await carryOptOut({ optOuts: ports.optOuts, clock: ports.clock }, organizationId, previousIds, currentIds) : false;
  await rekeyContact(ports, organizationId, previousIds, current);
  return { optedOut };
}

async function carryOptOut(
  ports: Pick<OptOutPorts, 'optOuts' | 'clock'>,
  organizationId: string,
  previousIds: readonly string[],
  currentIds: readonly string[],
): Promise<boolean> {
  const records = await Promise.all(previousIds.map(async (id) => (await ports.optOuts.updateOptOut(organizationId, id, (record) => record)).before));
  const changeFor = carriedChangeOf(records, ports.clock.now().toISOString());
  if (!changeFor) return false;
  for (const id of currentIds) await ports.optOuts.updateOptOut(organizationId, id, changeFor(id));
  return records.some(isOptedOut);
}

async function rekeyContact(
  ports: IdentityChangePorts,
  organizationId: string,
  previousIds: readonly string[],
  current: IdentityChange['current'],
): Promise<void> {
  // Only the BSUID and the number are claimed for contacts; a parent BSUID never is.
  const contact = await existingContactOf({ inbox: ports.inbox }, organizationId, previousIds);
  if (!contact) return;
  const identity: ContactIdentity = { replace: true };
  if (await claimFor({ inbox: ports.inbox, clock: ports.clock }, contact, current.userId)) identity.userId = current.userId;
  if (current.phoneNumber !== undefined && (await claimFor({ inbox: ports.inbox, clock: ports.clock }, contact, current.phoneNumber)))
    identity.phoneNumber = current.phoneNumber;
  if (identity.userId === undefined && identity.phoneNumber === undefined) return;
  if (contact.userId === identity.userId && (identity.phoneNumber === undefined || contact.phoneNumber === identity.phoneNumber)) return;
  await ports.inbox.addContactIdentity(organizationId, contact.contactId, identity, ports.clock.now().toISOString());
}
