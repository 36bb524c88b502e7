/** Broadcast ports answered by tenancy (senders, billing): no client of their own. */
import { TenancyBilling } from '../../shared/module-bridges/tenancy-billing';
import { TenancySenderDirectory } from '../../shared/module-bridges/tenancy-sender-directory';
import type { TenancyServices } from '../../shared/tenancy/tenancy-services';
import { memoize, type CompositionContext } from './composition-context';

export const senderDirectorySection = (context: CompositionContext, tenancy: () => TenancyServices) =>
  memoize(() => new TenancySenderDirectory(tenancy(), context.config.sending.defaultMessagesPerSecond));

export const billingSection = (tenancy: () => TenancyServices) => memoize(() => new TenancyBilling(tenancy()));
