import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import type { InboxServices } from '../../shared/inbox/inbox-services';
import { listOptOutsQuerySchema } from '../../shared/inbox/inbox.schema';
import { optOutResource, pageBody } from './v1-resources';

/** GET /v1/opt-outs?page&pageSize — the suppression list, by phone number. */
export const listOptOuts = httpOperation('v1-api-key', async (request, { inbox }: { inbox: InboxServices }) => {
  const query = parseRequest(listOptOutsQuerySchema, request.query, 'query');
  const page = await inbox.listOptOuts({ organizationId: request.caller.organizationId, page: query.page, pageSize: query.pageSize });
  return { statusCode: 200, body: pageBody(page, optOutResource) };
});
