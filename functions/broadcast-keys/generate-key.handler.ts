import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { generateKeySchema } from '../../shared/broadcast/discovery.schema';
import { generateSenderKey, type SenderKeyErrors, type SenderKeyIssuer } from '../../shared/broadcast/generate-sender-key';

export const generateKey = httpOperation('none', async (request, dependencies: { keys: SenderKeyIssuer; keyErrors: SenderKeyErrors }) => {
  const { phoneNumber } = parseRequest(generateKeySchema, request.body);
  const { apiKey } = await generateSenderKey(dependencies.keys, dependencies.keyErrors, { phoneNumber, sourceIp: request.sourceIp });
  return { statusCode: 200, body: broadcastEnvelope(200, 'API key generated; store it now, it is not shown again', { apiKey }) };
});
