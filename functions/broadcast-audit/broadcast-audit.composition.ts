/** broadcast-audit: tenancy (read: the caller), the audit table (read), rate limits. DynamoDB only. */
import type { AuditLog } from '../../shared/audit/ports';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { auditLogSection } from '../composition/audit.section';
import { lazyPorts, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { tenancyReaderSection } from '../composition/tenancy.section';

export interface BroadcastAuditDependencies extends HttpPipelineDependencies {
  auditLog: AuditLog;
}

export function composeBroadcastAudit(context: CompositionContext): BroadcastAuditDependencies {
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<BroadcastAuditDependencies>({
    ...httpSection(context, dynamoDb, tenancyReaderSection(context, dynamoDb)),
    auditLog: auditLogSection(context, dynamoDb),
  });
}
