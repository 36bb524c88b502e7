import { callerOf } from '../../shared/http/http-operation';
import { sendBulkTemplateWithOwnedIds } from '../../shared/upstream/bulk-send-ids';
import type { WrapperOperation } from './pass-through.handler';

/** POST /upstream/phone-numbers/{phoneNumberId}/messages/bulk: 200 with the delivery summary. */
export const sendBulkTemplate: WrapperOperation = async (request, { upstream }) => {
  const result = await sendBulkTemplateWithOwnedIds(upstream, { organizationId: callerOf(request).organizationId, pathParameters: request.pathParameters, body: request.body });
  return { statusCode: 200, body: { messaging_product: 'whatsapp', ...result } };
};
