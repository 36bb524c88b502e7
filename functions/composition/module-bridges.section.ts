/** Ports of one module answered by another (senders and billing by tenancy, platform message ids by the ledger, the service window by the inbox): no client of their own. */
import type { JobStore, RecipientLedger } from '../../shared/broadcast/ports';
import type { InboxRepository } from '../../shared/inbox/ports';
import type { ContactBook } from '../../shared/inbox/contact-book';
import type { OptOutRepository } from '../../shared/inbox/opt-outs';
import { InboxSuppressionList } from '../../shared/module-bridges/inbox-opt-outs';
import { InboxServiceWindow } from '../../shared/module-bridges/inbox-service-window';
import { BroadcastMessageIds } from '../../shared/module-bridges/broadcast-message-ids';
import { TenancyBilling } from '../../shared/module-bridges/tenancy-billing';
import { TenancySenderDirectory } from '../../shared/module-bridges/tenancy-sender-directory';
import { TenancyOrganizationStanding } from '../../shared/module-bridges/tenancy-organization-standing';
import type { OrganizationStore } from '../../shared/tenancy/tenancy-stores';
import type { TenancyServices } from '../../shared/tenancy/tenancy-services';
import { memoize, type CompositionContext } from './composition-context';

export const senderDirectorySection = (context: CompositionContext, tenancy: () => TenancyServices) =>
  memoize(() => new TenancySenderDirectory(tenancy(), context.config.sending.defaultMessagesPerSecond));

export const billingSection = (tenancy: () => TenancyServices) => memoize(() => new TenancyBilling(tenancy()));

/** The ledger's message-id look-up, through the broadcast stores (not a second copy of it). */
export const platformMessageIdsSection = (broadcasts: () => JobStore & RecipientLedger) => memoize(() => new BroadcastMessageIds(broadcasts()));

/** The customer-service window free-form sends check, read from the inbox's conversations. */
export const serviceWindowSection = (inbox: () => InboxRepository & ContactBook) => memoize(() => new InboxServiceWindow(inbox(), inbox()));

/** The opt-outs broadcasts and bulk sends skip, read from the inbox's suppression list. */
export const suppressionListSection = (optOuts: () => OptOutRepository) => memoize(() => new InboxSuppressionList(optOuts()));

/** Whether an organization is suspended (a scheduled job of one must not fire), from its tenancy record. */
export const organizationStandingSection = (tenancy: () => { repository: Pick<OrganizationStore, 'getOrganization'> }) =>
  memoize(() => new TenancyOrganizationStanding(tenancy().repository));
