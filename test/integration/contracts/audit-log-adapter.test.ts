/** The audit log's DynamoDB adapter on dynalite passes the contract its fake passes too (test/unit/contracts/audit-log-fake.test.ts). */
import { DynamoDbAuditLog } from '../../../shared/adapters/dynamodb/dynamodb-audit-log';
import { describeAuditLogContract } from '../../support/contracts/audit-log.contract';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;

beforeAll(async () => {
  dynamo = await startTestDynamo();
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

describeAuditLogContract('DynamoDbAuditLog', (clock) => new DynamoDbAuditLog(dynamo.documentClient, dynamo.tableNames.audit, clock));
