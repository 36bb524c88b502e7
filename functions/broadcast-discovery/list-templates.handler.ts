import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { listApprovedTemplates } from '../../shared/broadcast/list-approved-templates';
import { templatesQuerySchema } from '../../shared/broadcast/discovery.schema';
import type { SenderDirectory } from '../../shared/broadcast/ports';
import type { TemplateCatalog } from '../../shared/broadcast/template-catalog';

export const listTemplates = httpOperation('broadcast-api-key', async (request, dependencies: { senders: SenderDirectory; templates: TemplateCatalog }) => {
  const caller = request.caller;
  const query = parseRequest(templatesQuerySchema, request.query, 'query');
  const templates = await listApprovedTemplates(dependencies, caller, query.phone_number, query.status);
  return { statusCode: 200, body: broadcastEnvelope(200, 'Templates fetched successfully', templates) };
});
