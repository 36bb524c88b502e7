import { httpOperation } from '../../shared/http/http-operation';
import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { parseRequest } from '../../shared/http/validation';
import type { OrganizationApiKeys } from '../../shared/tenancy/organization-api-keys';
import { newApiKeySchema } from '../../shared/tenancy/organization-api-keys.schema';

type ApiKeysPorts = { apiKeys: OrganizationApiKeys };

export const listApiKeys = httpOperation('broadcast-api-key', async (request, ports: ApiKeysPorts) => {
  const keys = await ports.apiKeys.list(request.caller);
  return { statusCode: 200, body: broadcastEnvelope(200, `${keys.length} API key(s)`, { keys }) };
});

export const createApiKey = httpOperation('broadcast-api-key', async (request, ports: ApiKeysPorts) => {
  const created = await ports.apiKeys.create(request.caller, parseRequest(newApiKeySchema, request.body));
  return { statusCode: 201, body: broadcastEnvelope(201, 'API key created; store it now, it is not shown again', created) };
});

export const revokeApiKey = httpOperation('broadcast-api-key', async (request, ports: ApiKeysPorts) => {
  const revoked = await ports.apiKeys.revoke(request.caller, request.pathParameters.credentialId ?? '');
  return { statusCode: 200, body: broadcastEnvelope(200, 'API key revoked', revoked) };
});
