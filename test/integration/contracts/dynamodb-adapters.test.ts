/** The DynamoDB adapters on dynalite pass the contracts their in-memory fakes pass too (test/unit/contracts). */
import { DynamoDbBroadcastRepository } from '../../../shared/adapters/dynamodb/dynamodb-broadcast-repository';
import { DynamoDbInboxRepository } from '../../../shared/adapters/dynamodb/dynamodb-inbox-repository';
import { DynamoDbRateLimiter } from '../../../shared/adapters/dynamodb/dynamodb-rate-limiter';
import { DynamoDbSendPacer } from '../../../shared/adapters/dynamodb/dynamodb-send-pacer';
import { DynamoDbPortfolioReach } from '../../../shared/adapters/dynamodb/dynamodb-portfolio-reach';
import { describePortfolioReachContract } from '../../support/contracts/portfolio-reach.contract';
import { PowertoolsIdempotencyGuard } from '../../../shared/adapters/idempotency/powertools-idempotency-guard';
import { DynamoDbTenancyRepository } from '../../../shared/adapters/dynamodb/dynamodb-tenancy-repository';
import { describeBroadcastRepositoryContract } from '../../support/contracts/broadcast-repository.contract';
import { describeIdempotencyGuardContract } from '../../support/contracts/idempotency-guard.contract';
import { describeInboxRepositoryContract } from '../../support/contracts/inbox-repository.contract';
import { describeRateLimiterContract } from '../../support/contracts/rate-limiter.contract';
import { describeSendPacerContract } from '../../support/contracts/send-pacer.contract';
import { describeTenancyRepositoryContract } from '../../support/contracts/tenancy-repository.contract';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';
import { DynamoDbWebhookEndpointRegistry } from '../../../shared/adapters/dynamodb/dynamodb-webhook-endpoint-registry';
import { LocalAesTokenCipher, generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { systemClock } from '../../../shared/ports/clock';
import { describeWebhookEndpointRegistryContract } from '../../support/contracts/webhook-endpoint-registry.contract';

let dynamo: TestDynamo;

beforeAll(async () => {
  dynamo = await startTestDynamo();
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

describeTenancyRepositoryContract('DynamoDbTenancyRepository', () => new DynamoDbTenancyRepository(dynamo.documentClient, dynamo.tableNames.tenancy));
describeInboxRepositoryContract('DynamoDbInboxRepository', () => new DynamoDbInboxRepository(dynamo.documentClient, dynamo.tableNames.inbox));
describeSendPacerContract('DynamoDbSendPacer', () => new DynamoDbSendPacer(dynamo.documentClient, dynamo.tableNames.messaging));
describePortfolioReachContract('DynamoDbPortfolioReach', () => new DynamoDbPortfolioReach(dynamo.documentClient, dynamo.tableNames.messaging));
describeIdempotencyGuardContract('PowertoolsIdempotencyGuard', () => new PowertoolsIdempotencyGuard(dynamo.client, dynamo.tableNames.idempotency));
describeBroadcastRepositoryContract('DynamoDbBroadcastRepository', () => new DynamoDbBroadcastRepository(dynamo.documentClient, dynamo.tableNames.messaging));
describeRateLimiterContract('DynamoDbRateLimiter', () => new DynamoDbRateLimiter(dynamo.documentClient, dynamo.tableNames.rateLimits));
describeWebhookEndpointRegistryContract(
  'DynamoDbWebhookEndpointRegistry',
  () => new DynamoDbWebhookEndpointRegistry(dynamo.documentClient, dynamo.tableNames.tenancy, new LocalAesTokenCipher(generateLocalTokenKey()), systemClock),
);
