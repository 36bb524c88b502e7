/** The DynamoDB adapters on dynalite pass the contracts their in-memory fakes pass too (test/unit/contracts). */
import { DynamoDbAccountDirectory } from '../../../shared/adapters/dynamodb/dynamodb-account-directory';
import { DynamoDbBillingStore } from '../../../shared/adapters/dynamodb/dynamodb-billing-store';
import {
  chunkProgressAdapter,
  dynamoDbBroadcastStores,
  jobControlAdapter,
  jobStoreAdapter,
  recipientLedgerAdapter,
} from '../../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import { DynamoDbCredentialStore } from '../../../shared/adapters/dynamodb/dynamodb-credential-store';
import { DynamoDbInboxRepository } from '../../../shared/adapters/dynamodb/dynamodb-inbox-repository';
import { DynamoDbMembershipStore } from '../../../shared/adapters/dynamodb/dynamodb-membership-store';
import { DynamoDbOrganizationStore } from '../../../shared/adapters/dynamodb/dynamodb-organization-store';
import { DynamoDbRateLimiter } from '../../../shared/adapters/dynamodb/dynamodb-rate-limiter';
import { DynamoDbSendPacer } from '../../../shared/adapters/dynamodb/dynamodb-send-pacer';
import { DynamoDbServiceMessageCounter } from '../../../shared/adapters/dynamodb/dynamodb-service-message-counter';
import { describeServiceMessageCounterContract } from '../../support/contracts/service-message-counter.contract';
import { DynamoDbPortfolioReach } from '../../../shared/adapters/dynamodb/dynamodb-portfolio-reach';
import { describePortfolioReachContract } from '../../support/contracts/portfolio-reach.contract';
import { PowertoolsIdempotencyGuard } from '../../../shared/adapters/idempotency/powertools-idempotency-guard';
import { describeAccountDirectoryContract } from '../../support/contracts/account-directory.contract';
import { describeBillingStoreContract } from '../../support/contracts/billing-store.contract';
import { describeChunkProgressStoreContract } from '../../support/contracts/chunk-progress-store.contract';
import { describeCredentialStoreContract } from '../../support/contracts/credential-store.contract';
import { describeIdempotencyGuardContract } from '../../support/contracts/idempotency-guard.contract';
import { describeInboxRepositoryContract } from '../../support/contracts/inbox-repository.contract';
import { describeContactBookContract } from '../../support/contracts/contact-book.contract';
import { DynamoDbAudienceStore } from '../../../shared/adapters/dynamodb/dynamodb-audience-store';
import { describeAudienceStoreContract } from '../../support/contracts/audience-store.contract';
import { DynamoDbOptOutKeys } from '../../../shared/adapters/dynamodb/dynamodb-opt-out-keys';
import { describeOptOutKeyPagesContract } from '../../support/contracts/opt-out-key-pages.contract';
import { describeJobControlStoreContract } from '../../support/contracts/job-control-store.contract';
import { describeJobStoreContract } from '../../support/contracts/job-store.contract';
import { describeMembershipStoreContract } from '../../support/contracts/membership-store.contract';
import { describeOrganizationStoreContract } from '../../support/contracts/organization-store.contract';
import { describeRateLimiterContract } from '../../support/contracts/rate-limiter.contract';
import { describeRecipientLedgerContract } from '../../support/contracts/recipient-ledger.contract';
import { describeSendPacerContract } from '../../support/contracts/send-pacer.contract';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';
import { DynamoDbWebhookEndpointRegistry } from '../../../shared/adapters/dynamodb/dynamodb-webhook-endpoint-registry';
import { LocalAesTokenCipher, generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { systemClock } from '../../../shared/ports/clock';
import { describeWebhookEndpointRegistryContract } from '../../support/contracts/webhook-endpoint-registry.contract';

import { DynamoDbOutcomeStore } from '../../../shared/adapters/dynamodb/dynamodb-outcome-store';
import { describeOutcomeStoreContract } from '../../support/contracts/outcome-store.contract';
import { DynamoDbTouchStore } from '../../../shared/adapters/dynamodb/dynamodb-touch-store';
import { describeTouchStoreContract } from '../../support/contracts/touch-store.contract';

let dynamo: TestDynamo;

beforeAll(async () => {
  dynamo = await startTestDynamo();
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

const tenancyTable = () => [dynamo.documentClient, dynamo.tableNames.tenancy] as const;
const messagingTable = () => [dynamo.documentClient, dynamo.tableNames.messaging] as const;

describeOrganizationStoreContract('DynamoDbOrganizationStore', () => new DynamoDbOrganizationStore(...tenancyTable()));
describeAccountDirectoryContract('DynamoDbAccountDirectory', () => new DynamoDbAccountDirectory(...tenancyTable()));
describeCredentialStoreContract('DynamoDbCredentialStore', () => new DynamoDbCredentialStore(...tenancyTable()));
describeMembershipStoreContract('DynamoDbMembershipStore', () => new DynamoDbMembershipStore(...tenancyTable()));
describeBillingStoreContract('DynamoDbBillingStore', () => new DynamoDbBillingStore(...tenancyTable()));
describeInboxRepositoryContract('DynamoDbInboxRepository', () => new DynamoDbInboxRepository(dynamo.documentClient, dynamo.tableNames.inbox));
describeContactBookContract('DynamoDbContactBook', () => new DynamoDbInboxRepository(dynamo.documentClient, dynamo.tableNames.inbox));
describeAudienceStoreContract('DynamoDbAudienceStore', () => new DynamoDbAudienceStore(dynamo.documentClient, dynamo.tableNames.inbox));
describeOptOutKeyPagesContract('DynamoDbOptOutKeys', () => ({
  optOuts: new DynamoDbInboxRepository(dynamo.documentClient, dynamo.tableNames.inbox),
  keys: new DynamoDbOptOutKeys(dynamo.documentClient, dynamo.tableNames.inbox),
}));
describeSendPacerContract('DynamoDbSendPacer', () => new DynamoDbSendPacer(dynamo.documentClient, dynamo.tableNames.messaging));
describeServiceMessageCounterContract('DynamoDbServiceMessageCounter', () => new DynamoDbServiceMessageCounter(...messagingTable()));
describePortfolioReachContract('DynamoDbPortfolioReach', () => new DynamoDbPortfolioReach(dynamo.documentClient, dynamo.tableNames.messaging));
describeIdempotencyGuardContract('PowertoolsIdempotencyGuard', () => new PowertoolsIdempotencyGuard(dynamo.client, dynamo.tableNames.idempotency));
// Each broadcast suite gets its store's adapter and the adapters its tests set jobs up with.
describeJobStoreContract('DynamoDbJobStore', () => dynamoDbBroadcastStores(...messagingTable(), [jobStoreAdapter, chunkProgressAdapter]));
describeJobControlStoreContract('DynamoDbJobControlStore', () => dynamoDbBroadcastStores(...messagingTable(), [jobStoreAdapter, jobControlAdapter]));
describeRecipientLedgerContract('DynamoDbRecipientLedger', () =>
  dynamoDbBroadcastStores(...messagingTable(), [jobStoreAdapter, recipientLedgerAdapter, chunkProgressAdapter]),
);
describeChunkProgressStoreContract(
  'DynamoDbChunkProgressStore',
  () => dynamoDbBroadcastStores(...messagingTable(), [jobStoreAdapter, recipientLedgerAdapter, chunkProgressAdapter]),
  () => new DynamoDbOutcomeStore(...messagingTable()),
);
describeRateLimiterContract('DynamoDbRateLimiter', () => new DynamoDbRateLimiter(dynamo.documentClient, dynamo.tableNames.rateLimits));
describeWebhookEndpointRegistryContract(
  'DynamoDbWebhookEndpointRegistry',
  () => new DynamoDbWebhookEndpointRegistry(dynamo.documentClient, dynamo.tableNames.tenancy, new LocalAesTokenCipher(generateLocalTokenKey()), systemClock),
);
describeOutcomeStoreContract('DynamoDbOutcomeStore', () => new DynamoDbOutcomeStore(...messagingTable()));
describeTouchStoreContract('DynamoDbTouchStore', () => new DynamoDbTouchStore(...messagingTable()));
