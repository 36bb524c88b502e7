import { httpOperation } from '../../shared/http/http-operation';
import { v1Envelope } from '../../shared/http/surface-responses';
import { ContactNotFoundError } from '../../shared/inbox/errors';
import type { InboxServices } from '../../shared/inbox/inbox-services';
import { contactIdPattern } from '../../shared/inbox/inbox.schema';
import { contactResource } from './v1-resources';

/** GET /v1/contacts/{contactId} — 404 CONTACT_NOT_FOUND for unknown ids and ids of other organizations alike. */
export const getContact = httpOperation('v1-api-key', async (request, { inbox }: { inbox: InboxServices }) => {
  const caller = request.caller;
  const contactId = request.pathParameters.contactId ?? '';
  // Anything that is not an id shape cannot name a contact: answered without a look-up.
  if (!contactIdPattern.test(contactId)) throw new ContactNotFoundError(contactId);
  const contact = await inbox.getContact(caller.organizationId, contactId);
  return { statusCode: 200, body: v1Envelope(contactResource(contact)) };
});
