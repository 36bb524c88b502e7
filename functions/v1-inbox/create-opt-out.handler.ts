import { httpOperation } from '../../shared/http/http-operation';
import { v1Envelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import type { InboxServices } from '../../shared/inbox/inbox-services';
import { createOptOutSchema } from '../../shared/inbox/inbox.schema';
import { optOutResource } from './v1-resources';

/** POST /v1/opt-outs — 201 when added, 200 with the existing entry when the number is already on the list. */
export const createOptOut = httpOperation('v1-api-key', async (request, { inbox }: { inbox: InboxServices }) => {
  const body = parseRequest(createOptOutSchema, request.body);
  const { optOut, created } = await inbox.addOptOut({ organizationId: request.caller.organizationId, phoneNumber: body.phoneNumber });
  return { statusCode: created ? 201 : 200, body: v1Envelope(optOutResource(optOut)) };
});
