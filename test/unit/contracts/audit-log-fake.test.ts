/** The audit log's fake passes the same contract as the DynamoDB adapter (test/integration/contracts/audit-log-adapter.test.ts). */
import { describeAuditLogContract } from '../../support/contracts/audit-log.contract';
import { InMemoryAuditLog } from '../../support/in-memory-audit-log';

describeAuditLogContract('InMemoryAuditLog', (clock) => new InMemoryAuditLog(clock));
