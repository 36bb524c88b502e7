/** The campaign adapters on dynalite pass the contracts their in-memory fakes pass too (test/unit/contracts/campaign-fakes.test.ts). */
import { DynamoDbCampaignStore } from '../../../shared/adapters/dynamodb/dynamodb-campaign-store';
import { DynamoDbPersonClaims } from '../../../shared/adapters/dynamodb/dynamodb-person-claims';
import { describeCampaignStoreContract } from '../../support/contracts/campaign-store.contract';
import { describePersonClaimsContract } from '../../support/contracts/person-claims.contract';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;

beforeAll(async () => {
  dynamo = await startTestDynamo();
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

describeCampaignStoreContract('DynamoDbCampaignStore', () => new DynamoDbCampaignStore(dynamo.documentClient, dynamo.tableNames.messaging));
describePersonClaimsContract('DynamoDbPersonClaims', () => new DynamoDbPersonClaims(dynamo.documentClient, dynamo.tableNames.messaging));
