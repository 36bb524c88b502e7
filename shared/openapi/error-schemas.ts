/** The error bodies of every surface and API Gateway's own failure answer, as the OpenAPI document states them. */
import type { SurfaceName } from '../../runtime-contract/route-manifest';
import { int, obj, str, type JsonSchema } from './schema-builders';

const retryAfterSeconds: JsonSchema = { type: 'integer', minimum: 0, description: 'Seconds until the request would be admitted (429 of the application)' };

/**
 * Each surface's error body (shared/http/surface-responses.ts `errorBody`, and the gateway's answers
 * in route-manifest.ts): written loosely enough for both, strictly on what clients parse.
 */
export const errorBodySchemas: Readonly<Record<SurfaceName, JsonSchema>> = {
  broadcast: {
    type: 'object',
    required: ['status', 'status_code', 'message'],
    properties: {
      status: { const: false },
      status_code: int,
      statusCode: int,
      message: str,
      requestId: str,
      timestamp: str,
      path: str,
      method: str,
      retryAfterSeconds,
      data: {
        type: 'object',
        properties: {
          error: {
            type: 'object',
            required: ['message'],
            properties: {
              code: str,
              message: str,
              retryAfterSeconds,
              earlierJob: {
                ...obj({ jobId: str, acceptedAt: str }),
                description: 'An Idempotency-Key past its 48-hour window (422 IDEMPOTENCY_KEY_REUSED): the job it was used for and when it was accepted',
              },
              field: {
                ...str,
                description: "send-single's `Invalid phone number format`: the field whose number breaks the rule (`countryCode` or `toPhoneNumber`)",
              },
              rule: { ...str, description: "send-single's `Invalid phone number format`: the rule it breaks, e.g. `must not be empty`" },
            },
          },
        },
      },
    },
  },
  organization: {
    type: 'object',
    required: ['statusCode', 'status', 'message', 'data'],
    properties: {
      statusCode: int,
      status: { const: 'error' },
      message: str,
      retryAfterSeconds,
      data: {
        oneOf: [
          { type: 'object', required: ['error'], properties: { error: obj({ message: str }) } },
          { type: 'array', maxItems: 0 },
        ],
      },
    },
  },
  v1: { type: 'object', required: ['success', 'error'], properties: { success: { const: false }, error: obj({ code: str, message: str }), retryAfterSeconds } },
  upstream: {
    type: 'object',
    required: ['status', 'message', 'error'],
    properties: {
      status: { const: false },
      message: str,
      retryAfterSeconds,
      error: { type: 'object', required: ['message', 'type', 'code'], properties: { message: str, type: str, code: int, error_subcode: int, fbtrace_id: str } },
    },
  },
  webhooks: { type: 'object', required: ['error'], properties: { error: obj({ code: str, message: str, requestId: str }, ['code', 'message']) } },
  docs: { type: 'object', required: ['error'], properties: { error: obj({ code: str, message: str, requestId: str }, ['code', 'message']) } },
  clicks: { type: 'object', required: ['error'], properties: { error: obj({ code: str, message: str, requestId: str }, ['code', 'message']) } },
};

/** API Gateway's own answers when the function fails or times out (`{"message": …}`, every surface). */
export const gatewayFailureSchema: JsonSchema = obj({ message: str });
