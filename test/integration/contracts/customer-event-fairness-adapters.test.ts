/** The fairness adapters on dynalite pass the contracts their in-memory fakes pass (test/unit/contracts/customer-event-fairness-fakes.test.ts). */
import { DynamoDbRedeliveryQuota } from '../../../shared/adapters/dynamodb/dynamodb-redelivery-quota';
import { DynamoDbWebhookEndpointHealth } from '../../../shared/adapters/dynamodb/dynamodb-webhook-endpoint-health';
import { describeEndpointHealthStoreContract, describeRedeliveryQuotaContract } from '../../support/contracts/customer-event-fairness.contract';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;

beforeAll(async () => {
  dynamo = await startTestDynamo();
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

describeEndpointHealthStoreContract(
  'DynamoDbWebhookEndpointHealth',
  () => new DynamoDbWebhookEndpointHealth(dynamo.documentClient, dynamo.tableNames.rateLimits),
);
describeRedeliveryQuotaContract('DynamoDbRedeliveryQuota', () => new DynamoDbRedeliveryQuota(dynamo.documentClient, dynamo.tableNames.rateLimits));
