import { httpOperation } from '../../shared/http/http-operation';
import { v1Envelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import type { InboxServices } from '../../shared/inbox/inbox-services';
import { createContactSchema } from '../../shared/inbox/inbox.schema';
import { contactResource } from './v1-resources';

/** POST /v1/contacts — 201; 409 CONTACT_ALREADY_EXISTS when the phone number is taken in the organization. */
export const createContact = httpOperation('v1-api-key', async (request, { inbox }: { inbox: InboxServices }) => {
  const caller = request.caller;
  const body = parseRequest(createContactSchema, request.body);
  const contact = await inbox.createContact({
    organizationId: caller.organizationId,
    phoneNumber: body.phoneNumber,
    name: body.name,
    email: body.email,
    tags: body.tags,
    attributes: body.attributes,
  });
  return { statusCode: 201, body: v1Envelope(contactResource(contact)) };
});
