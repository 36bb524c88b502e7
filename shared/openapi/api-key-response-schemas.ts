/** Success answers of the `/api-keys` routes (docs/PEOPLE.md "API keys"), in the broadcast envelope. */
import { arrayOf, json, obj, str, type JsonSchema, type SuccessResponse } from './schema-builders';

const broadcastEnvelope = (data: JsonSchema, statusCode: number): JsonSchema =>
  obj({ status: { const: true }, status_code: { const: statusCode }, message: str, data });
const envelopeExample = (statusCode: number, message: string, data: unknown) => ({ status: true, status_code: statusCode, message, data });

const apiKey = obj(
  {
    credentialId: str,
    boundPhoneNumber: { ...str, description: 'The one sender number the key may use; absent for a key of the whole organization' },
    origin: {
      type: 'string',
      enum: ['operator', 'organization-admin', 'generate-key'],
      description: 'Who issued it: an operator, the organization (`POST /api-keys`), or the public generate-key operation',
    },
    createdAt: str,
    revokedAt: str,
    expiresAt: str,
  },
  ['credentialId', 'origin', 'createdAt'],
);
const created = obj(
  {
    credentialId: str,
    apiKey: { ...str, description: 'The secret, for `x-api-key`: shown in this answer only (only its hash is stored)' },
    boundPhoneNumber: str,
    createdAt: str,
  },
  ['credentialId', 'apiKey', 'createdAt'],
);

const example = { credentialId: 'cred_01JD3Q4ZK8V6T2N0R5W7X9Y1AB', origin: 'organization-admin', createdAt: '2026-12-02T09:30:00.000Z' };

export const apiKeySuccesses: Readonly<Record<string, SuccessResponse[]>> = {
  'broadcast:listApiKeys': [
    {
      status: '200',
      description: 'The organization’s broadcast API keys, newest first, revoked ones with `revokedAt`; never a secret or hash',
      content: json(broadcastEnvelope(obj({ keys: arrayOf(apiKey) }), 200), envelopeExample(200, '1 API key(s)', { keys: [example] })),
    },
  ],
  'broadcast:createApiKey': [
    {
      status: '201',
      description: 'The new key; store `apiKey` now, it is not shown again',
      content: json(
        broadcastEnvelope(created, 201),
        envelopeExample(201, 'API key created; store it now, it is not shown again', {
          credentialId: example.credentialId,
          apiKey: 'wbk_…',
          createdAt: example.createdAt,
        }),
      ),
    },
  ],
  'broadcast:revokeApiKey': [
    {
      status: '200',
      description: 'Revoked (again, too): the key answers 401 from now on, the calling key included',
      content: json(
        broadcastEnvelope(obj({ credentialId: str, revoked: { const: true } }), 200),
        envelopeExample(200, 'API key revoked', { credentialId: example.credentialId, revoked: true }),
      ),
    },
  ],
};
