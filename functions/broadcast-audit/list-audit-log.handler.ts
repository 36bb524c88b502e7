import { listAuditLog as readAuditLog } from '../../shared/audit/list-audit-log';
import { auditLogQuerySchema } from '../../shared/audit/list-audit-log.schema';
import { httpOperation } from '../../shared/http/http-operation';
import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import type { BroadcastAuditDependencies } from './broadcast-audit.composition';

/** GET /audit-log: the organization's entries, newest first (docs/PEOPLE.md "Audit log"). */
export const listAuditLog = httpOperation('broadcast-api-key', async (request, ports: BroadcastAuditDependencies) => {
  const query = parseRequest(auditLogQuerySchema, request.query, 'query');
  const page = await readAuditLog(ports.auditLog, request.caller, query);
  return { statusCode: 200, body: broadcastEnvelope(200, `${page.entries.length} audit entries`, page) };
});
