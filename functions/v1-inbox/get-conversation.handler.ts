import { httpOperation } from '../../shared/http/http-operation';
import { v1Envelope } from '../../shared/http/surface-responses';
import { ConversationNotFoundError } from '../../shared/inbox/errors';
import type { InboxServices } from '../../shared/inbox/inbox-services';
import { conversationIdPattern } from '../../shared/inbox/inbox.schema';
import { conversationResource } from './v1-resources';

/** GET /v1/conversations/{conversationId} — 404 CONVERSATION_NOT_FOUND for unknown ids and ids of other organizations alike. */
export const getConversation = httpOperation('v1-api-key', async (request, { inbox }: { inbox: InboxServices }) => {
  const caller = request.caller;
  const conversationId = request.pathParameters.conversationId ?? '';
  if (!conversationIdPattern.test(conversationId)) throw new ConversationNotFoundError(conversationId);
  const conversation = await inbox.getConversation(caller.organizationId, conversationId);
  return { statusCode: 200, body: v1Envelope(conversationResource(conversation)) };
});
