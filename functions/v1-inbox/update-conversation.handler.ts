import { httpOperation } from '../../shared/http/http-operation';
import { v1Envelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import { ConversationNotFoundError } from '../../shared/inbox/errors';
import type { InboxServices } from '../../shared/inbox/inbox-services';
import { conversationIdPattern, updateConversationSchema } from '../../shared/inbox/inbox.schema';
import { conversationResource } from './v1-resources';

/** PATCH /v1/conversations/{conversationId} {status} — close or reopen; 409 CONVERSATION_ALREADY_OPEN when reopening while another is open. */
export const updateConversation = httpOperation('v1-api-key', async (request, { inbox }: { inbox: InboxServices }) => {
  const caller = request.caller;
  const conversationId = request.pathParameters.conversationId ?? '';
  if (!conversationIdPattern.test(conversationId)) throw new ConversationNotFoundError(conversationId);
  const body = parseRequest(updateConversationSchema, request.body);
  const conversation = await inbox.setConversationStatus({ organizationId: caller.organizationId, conversationId, status: body.status });
  return { statusCode: 200, body: v1Envelope(conversationResource(conversation)) };
});
