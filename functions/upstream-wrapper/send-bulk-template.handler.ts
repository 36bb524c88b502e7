import { sendBulkTemplateWithOwnedIds } from '../../shared/upstream/bulk-send-ids';
import { wrapperOperation } from './pass-through.handler';

/** POST /upstream/phone-numbers/{phoneNumberId}/messages/bulk: 200 with the delivery summary. */
export const sendBulkTemplate = wrapperOperation(async (request, { upstream }) => {
  const result = await sendBulkTemplateWithOwnedIds(upstream, {
    organizationId: request.caller.organizationId,
    pathParameters: request.pathParameters,
    body: request.body,
  });
  return { statusCode: 200, body: { messaging_product: 'whatsapp', ...result } };
});
