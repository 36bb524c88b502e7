/**
 * The audit log (docs/PEOPLE.md "Audit log"): the DynamoDB adapter of the audit table, and the count
 * of entries that could not be written (`AuditWriteFailed`, alarmed), published at once: HTTP
 * groups flush no metrics of their own.
 */
import { platformMetrics } from '../../runtime-contract/observability';
import { DynamoDbAuditLog } from '../../shared/adapters/dynamodb/dynamodb-audit-log';
import type { AuditLog } from '../../shared/audit/ports';
import { requireSetting } from '../../shared/config/app-config';
import { value, type CompositionContext, type PortFactories } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';
import { publishedCount } from './published-count';

/** The audit log alone (its reader, broadcast-audit). */
export function auditLogSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => AuditLog {
  return () => new DynamoDbAuditLog(dynamoDb.document, requireSetting(context.config.tableNames.audit, 'AUDIT_TABLE'), context.clock);
}

/**
 * What a group with audited routes gives its pipeline: `...auditSection(context, dynamoDb)` in its composition.
 *
 * @example
 * return lazyPorts<Dependencies>({ ...httpSection(context, dynamoDb, tenancy), ...auditSection(context, dynamoDb), … });
 */
export function auditSection(context: CompositionContext, dynamoDb: DynamoDbClients): PortFactories<{ auditLog: AuditLog; auditWriteFailed: () => void }> {
  return { auditLog: auditLogSection(context, dynamoDb), auditWriteFailed: value(publishedCount(context, platformMetrics.auditWriteFailed)) };
}
