import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import type { InboxServices } from '../../shared/inbox/inbox-services';
import { optOutPathSchema } from '../../shared/inbox/inbox.schema';

/** DELETE /v1/opt-outs/{phoneNumber} — 204; 404 OPT_OUT_NOT_FOUND when the number is not on the list. */
export const deleteOptOut = httpOperation('v1-api-key', async (request, { inbox }: { inbox: InboxServices }) => {
  const { phoneNumber } = parseRequest(optOutPathSchema, { phoneNumber: request.pathParameters.phoneNumber ?? '' }, 'path');
  await inbox.removeOptOut(request.caller.organizationId, phoneNumber);
  return { statusCode: 204, body: undefined, textBody: '' };
});
