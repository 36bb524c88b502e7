/** The in-memory fakes the unit tests use pass the same contracts as the DynamoDB adapters (test/integration/contracts). */
import { InMemoryBroadcastRepository, InMemoryIdempotencyGuard, InMemoryPortfolioReach, InMemorySendPacer } from '../../support/broadcast-fakes';
import { describePortfolioReachContract } from '../../support/contracts/portfolio-reach.contract';
import { describeChunkProgressStoreContract } from '../../support/contracts/chunk-progress-store.contract';
import { describeJobControlStoreContract } from '../../support/contracts/job-control-store.contract';
import { describeJobStoreContract } from '../../support/contracts/job-store.contract';
import { describeRecipientLedgerContract } from '../../support/contracts/recipient-ledger.contract';
import { describeIdempotencyGuardContract } from '../../support/contracts/idempotency-guard.contract';
import { describeRateLimiterContract } from '../../support/contracts/rate-limiter.contract';
import { describeInboxRepositoryContract } from '../../support/contracts/inbox-repository.contract';
import { describeSendPacerContract } from '../../support/contracts/send-pacer.contract';
import { describeServiceMessageCounterContract } from '../../support/contracts/service-message-counter.contract';
import { InMemoryServiceMessageCounter } from '../../support/delivery-fakes';
import { describeAccountDirectoryContract } from '../../support/contracts/account-directory.contract';
import { describeBillingStoreContract } from '../../support/contracts/billing-store.contract';
import { describeCredentialStoreContract } from '../../support/contracts/credential-store.contract';
import { describeMembershipStoreContract } from '../../support/contracts/membership-store.contract';
import { describeOrganizationStoreContract } from '../../support/contracts/organization-store.contract';
import { InMemoryRateLimiter } from '../../support/in-memory-rate-limiter';
import { InMemoryInboxRepository } from '../../support/in-memory-inbox-repository';
import { InMemoryOutcomeStore } from '../../support/in-memory-outcome-store';
import { describeOutcomeStoreContract } from '../../support/contracts/outcome-store.contract';
import { InMemoryTouchStore } from '../../support/in-memory-touch-store';
import { describeTouchStoreContract } from '../../support/contracts/touch-store.contract';
import { InMemoryContactBook } from '../../support/in-memory-contact-book';
import { describeContactBookContract } from '../../support/contracts/contact-book.contract';
import { InMemoryAudienceStore } from '../../support/in-memory-audience-store';
import { describeAudienceStoreContract } from '../../support/contracts/audience-store.contract';
import { describeOptOutKeyPagesContract } from '../../support/contracts/opt-out-key-pages.contract';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';
import { InMemoryAccountDirectory } from '../../support/tenancy-stores/in-memory-account-directory';
import { InMemoryBillingStore } from '../../support/tenancy-stores/in-memory-billing-store';
import { InMemoryCredentialStore } from '../../support/tenancy-stores/in-memory-credential-store';
import { InMemoryMembershipStore } from '../../support/tenancy-stores/in-memory-membership-store';
import { InMemoryOrganizationStore } from '../../support/tenancy-stores/in-memory-organization-store';
import { InMemoryTenancyState } from '../../support/tenancy-stores/in-memory-tenancy-state';
import { describeWebhookEndpointRegistryContract } from '../../support/contracts/webhook-endpoint-registry.contract';
import { InMemoryWebhookRegistry } from '../../support/webhook-fakes';

describeOrganizationStoreContract('InMemoryOrganizationStore', () => new InMemoryOrganizationStore(new InMemoryTenancyState()));
describeAccountDirectoryContract('InMemoryAccountDirectory', () => new InMemoryAccountDirectory(new InMemoryTenancyState()));
describeCredentialStoreContract('InMemoryCredentialStore', () => new InMemoryCredentialStore(new InMemoryTenancyState()));
describeMembershipStoreContract('InMemoryMembershipStore', () => new InMemoryMembershipStore(new InMemoryTenancyState()));
describeBillingStoreContract('InMemoryBillingStore', () => new InMemoryBillingStore(new InMemoryTenancyState()));
describeInboxRepositoryContract('InMemoryInboxRepository', () => new InMemoryInboxRepository());
describeContactBookContract('InMemoryContactBook', () => new InMemoryContactBook());
describeAudienceStoreContract('InMemoryAudienceStore', () => new InMemoryAudienceStore());
describeOptOutKeyPagesContract('InMemoryOptOutRepository', () => {
  const optOuts = new InMemoryOptOutRepository();
  return { optOuts, keys: optOuts };
});
describeSendPacerContract('InMemorySendPacer', () => new InMemorySendPacer());
describeServiceMessageCounterContract('InMemoryServiceMessageCounter', () => new InMemoryServiceMessageCounter());
describeIdempotencyGuardContract('InMemoryIdempotencyGuard', () => new InMemoryIdempotencyGuard());
// The broadcast suites set their jobs up through the other stores: the fakes over one shared state.
describeJobStoreContract('InMemoryJobStore', () => new InMemoryBroadcastRepository());
describeJobControlStoreContract('InMemoryJobControlStore', () => new InMemoryBroadcastRepository());
describeRecipientLedgerContract('InMemoryRecipientLedger', () => new InMemoryBroadcastRepository());
describeChunkProgressStoreContract(
  'InMemoryChunkProgressStore',
  () => new InMemoryBroadcastRepository(),
  (repository) => (repository as InMemoryBroadcastRepository).outcomeFacts,
);
describeRateLimiterContract('InMemoryRateLimiter', () => new InMemoryRateLimiter());
describeWebhookEndpointRegistryContract('InMemoryWebhookRegistry', () => new InMemoryWebhookRegistry());
describePortfolioReachContract('InMemoryPortfolioReach', () => new InMemoryPortfolioReach());
describeOutcomeStoreContract('InMemoryOutcomeStore', () => new InMemoryOutcomeStore());
describeTouchStoreContract('InMemoryTouchStore', () => new InMemoryTouchStore());
