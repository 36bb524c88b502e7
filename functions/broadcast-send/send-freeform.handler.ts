import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { freeformMessageSchema } from '../../shared/broadcast/freeform-message.schema';
import { sendFreeformMessage, type SendFreeformDependencies } from '../../shared/broadcast/send-freeform-message';
import { jobIdHeader } from './job-id-header';

export const sendFreeform = httpOperation('broadcast-api-key', async (request, dependencies: SendFreeformDependencies) => {
  const message = parseRequest(freeformMessageSchema, request.body);
  const { jobId } = await sendFreeformMessage(dependencies, request.caller, message);
  return { statusCode: 200, headers: jobIdHeader(jobId), body: broadcastEnvelope(200, `Free-form ${message.type} message queued for delivery`, {}) };
});
