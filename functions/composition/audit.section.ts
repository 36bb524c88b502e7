/**
 * The audit log (docs/PEOPLE.md "Audit log"): the DynamoDB adapter of the audit table, and the count
 * of entries that could not be written (`AuditWriteFailed`, alarmed), published at once: HTTP
 * groups flush no metrics of their own.
 */
import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';
import { platformMetrics } from '../../runtime-contract/observability';
import { DynamoDbAuditLog } from '../../shared/adapters/dynamodb/dynamodb-audit-log';
import type { AuditLog } from '../../shared/audit/ports';
import { requireSetting } from '../../shared/config/app-config';
import { functionMetrics } from '../../shared/observability/metrics';
import { memoize, value, type CompositionContext, type PortFactories } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

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
  const metrics = memoize((): Metrics | undefined => (context.origin ? functionMetrics(context.origin.name, context.origin.environment) : undefined));
  const auditWriteFailed = (): void => {
    const own = metrics();
    if (!own) return;
    own.addMetric(platformMetrics.auditWriteFailed, MetricUnit.Count, 1);
    own.publishStoredMetrics();
  };
  return { auditLog: auditLogSection(context, dynamoDb), auditWriteFailed: value(auditWriteFailed) };
}
