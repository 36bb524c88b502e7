/** The in-memory fakes the unit tests use pass the same contracts as the DynamoDB adapters (test/integration/contracts). */
import { InMemoryBroadcastRepository, InMemoryIdempotencyGuard, InMemoryPortfolioReach, InMemorySendPacer } from '../../support/broadcast-fakes';
import { describePortfolioReachContract } from '../../support/contracts/portfolio-reach.contract';
import { describeBroadcastRepositoryContract } from '../../support/contracts/broadcast-repository.contract';
import { describeIdempotencyGuardContract } from '../../support/contracts/idempotency-guard.contract';
import { describeRateLimiterContract } from '../../support/contracts/rate-limiter.contract';
import { describeInboxRepositoryContract } from '../../support/contracts/inbox-repository.contract';
import { describeSendPacerContract } from '../../support/contracts/send-pacer.contract';
import { describeTenancyRepositoryContract } from '../../support/contracts/tenancy-repository.contract';
import { InMemoryRateLimiter } from '../../support/in-memory-rate-limiter';
import { InMemoryInboxRepository } from '../../support/in-memory-inbox-repository';
import { InMemoryTenancyRepository } from '../../support/in-memory-tenancy-repository';
import { describeWebhookEndpointRegistryContract } from '../../support/contracts/webhook-endpoint-registry.contract';
import { InMemoryWebhookRegistry } from '../../support/webhook-fakes';

describeTenancyRepositoryContract('InMemoryTenancyRepository', () => new InMemoryTenancyRepository());
describeInboxRepositoryContract('InMemoryInboxRepository', () => new InMemoryInboxRepository());
describeSendPacerContract('InMemorySendPacer', () => new InMemorySendPacer());
describeIdempotencyGuardContract('InMemoryIdempotencyGuard', () => new InMemoryIdempotencyGuard());
describeBroadcastRepositoryContract('InMemoryBroadcastRepository', () => new InMemoryBroadcastRepository());
describeRateLimiterContract('InMemoryRateLimiter', () => new InMemoryRateLimiter());
describeWebhookEndpointRegistryContract('InMemoryWebhookRegistry', () => new InMemoryWebhookRegistry());
describePortfolioReachContract('InMemoryPortfolioReach', () => new InMemoryPortfolioReach());
