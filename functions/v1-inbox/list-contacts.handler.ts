import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import type { InboxServices } from '../../shared/inbox/inbox-services';
import { listContactsQuerySchema } from '../../shared/inbox/inbox.schema';
import { contactResource, pageBody } from './v1-resources';

/** GET /v1/contacts?page&pageSize&tag&search — newest first. */
export const listContacts = httpOperation('v1-api-key', async (request, { inbox }: { inbox: InboxServices }) => {
  const caller = request.caller;
  const query = parseRequest(listContactsQuerySchema, request.query, 'query');
  const page = await inbox.listContacts({
    organizationId: caller.organizationId,
    filter: { tag: query.tag, search: query.search },
    page: query.page,
    pageSize: query.pageSize,
  });
  return { statusCode: 200, body: pageBody(page, contactResource) };
});
