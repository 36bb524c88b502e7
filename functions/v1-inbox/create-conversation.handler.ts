import { httpOperation } from '../../shared/http/http-operation';
import { v1Envelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import type { InboxServices } from '../../shared/inbox/inbox-services';
import { createConversationSchema } from '../../shared/inbox/inbox.schema';
import { conversationResource } from './v1-resources';

/** POST /v1/conversations — 201 when opened, 200 with the conversation already open between the sender and the contact. */
export const createConversation = httpOperation('v1-api-key', async (request, { inbox }: { inbox: InboxServices }) => {
  const caller = request.caller;
  const body = parseRequest(createConversationSchema, request.body);
  const { conversation, created } = await inbox.createConversation({
    organizationId: caller.organizationId,
    contactId: body.contactId,
    senderPhoneNumber: body.senderPhoneNumber,
  });
  return { statusCode: created ? 201 : 200, body: v1Envelope(conversationResource(conversation)) };
});
