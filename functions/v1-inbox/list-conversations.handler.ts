import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import type { InboxServices } from '../../shared/inbox/inbox-services';
import { listConversationsQuerySchema } from '../../shared/inbox/inbox.schema';
import { conversationResource, pageBody } from './v1-resources';

/** GET /v1/conversations?page&pageSize&status&contactId — newest first. */
export const listConversations = httpOperation('v1-api-key', async (request, { inbox }: { inbox: InboxServices }) => {
  const caller = request.caller;
  const query = parseRequest(listConversationsQuerySchema, request.query, 'query');
  const page = await inbox.listConversations({
    organizationId: caller.organizationId,
    filter: { status: query.status, contactId: query.contactId },
    page: query.page,
    pageSize: query.pageSize,
  });
  return { statusCode: 200, body: pageBody(page, conversationResource) };
});
