import * as v from 'valibot';
import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { callerOf, type HttpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { listApprovedTemplates } from '../../shared/broadcast/list-approved-templates';
import { digitsOnly } from '../../shared/broadcast/template-broadcast.schema';
import type { SenderDirectory } from '../../shared/broadcast/ports';
import type { TemplateCatalog } from '../../shared/broadcast/template-catalog';

const templatesQuerySchema = v.object({ phone_number: digitsOnly(6, 15) });

export const listTemplates: HttpOperation<{ senders: SenderDirectory; templates: TemplateCatalog }> = async (request, dependencies) => {
  const caller = callerOf(request);
  const query = parseRequest(templatesQuerySchema, request.query, 'query');
  const templates = await listApprovedTemplates(dependencies, caller, query.phone_number);
  return { statusCode: 200, body: broadcastEnvelope(200, 'Templates fetched successfully', templates) };
};
