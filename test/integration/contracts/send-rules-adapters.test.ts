/** The send rules' adapters on dynalite pass the contracts their in-memory fakes pass too (test/unit/contracts/send-rules-fakes.test.ts). */
import { DynamoDbContactPolicyStore } from '../../../shared/adapters/dynamodb/dynamodb-contact-policy-store';
import { DynamoDbFrequencyCapStore } from '../../../shared/adapters/dynamodb/dynamodb-frequency-cap-store';
import { describeContactPolicyStoreContract, describeFrequencyCapStoreContract } from '../../support/contracts/send-rules-stores.contract';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;

beforeAll(async () => {
  dynamo = await startTestDynamo();
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

describeContactPolicyStoreContract('DynamoDbContactPolicyStore', () => new DynamoDbContactPolicyStore(dynamo.documentClient, dynamo.tableNames.tenancy));
describeFrequencyCapStoreContract('DynamoDbFrequencyCapStore', () => new DynamoDbFrequencyCapStore(dynamo.documentClient, dynamo.tableNames.messaging));
