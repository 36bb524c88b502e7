/**
 * The answers API Gateway gives itself, before or instead of a Lambda: the surface's gateway
 * responses (unknown route, API key, throttled, quota, body too large) with their templates
 * rendered, and its plain JSON errors (unknown stage, integration failure, timeout).
 */
import type http from 'node:http';
import type { AuthorizerResponseKind, GatewayResponseKind, SurfaceDefinition } from '../../runtime-contract/route-manifest';

/** `x-amzn-ErrorType` API Gateway sends with each kind of gateway response. */
const errorTypes: Record<GatewayResponseKind | AuthorizerResponseKind, string> = {
  UNAUTHORIZED: 'UnauthorizedException',
  ACCESS_DENIED: 'AccessDeniedException',
  // A Lambda authorizer that throws (other than `Unauthorized`) or times out.
  AUTHORIZER_FAILURE: 'AuthorizerConfigurationException',
  API_KEY: 'ForbiddenException',
  THROTTLED: 'TooManyRequestsException',
  QUOTA_EXCEEDED: 'LimitExceededException',
  MISSING_AUTHENTICATION_TOKEN: 'MissingAuthenticationTokenException',
  REQUEST_TOO_LARGE: 'RequestEntityTooLargeException',
};

/** The `$context` variables gateway response templates use, as API Gateway fills them. */
export interface GatewayResponseContext {
  requestId: string;
  /** The request path with the stage, e.g. `/prod/api/v2/...`. */
  path: string;
  httpMethod: string;
  /** `15/Jan/2025:10:20:30 +0000`. */
  requestTime: string;
}

/**
 * API Gateway's simple variable substitution (templates of gateway responses are not VTL); values
 * are JSON-escaped, as they land inside the template's JSON strings. Unknown variables stay as written.
 *
 * @example
 * renderGatewayResponseBody('{"requestId":"$context.requestId"}', { requestId: 'r-1', path: '/prod/x', httpMethod: 'GET', requestTime: '…' });
 * // '{"requestId":"r-1"}'
 */
export const renderGatewayResponseBody = (template: string, context: GatewayResponseContext): string =>
  template.replace(/\$context\.(requestId|requestTime|path|httpMethod)\b/g, (_, name: keyof GatewayResponseContext) =>
    JSON.stringify(context[name]).slice(1, -1),
  );

/** Writes the surface's gateway response of `kind` (its authorizer's too), as API Gateway answers it. */
export const sendGatewayResponse = (
  res: http.ServerResponse,
  surface: SurfaceDefinition,
  kind: GatewayResponseKind | AuthorizerResponseKind,
  context: GatewayResponseContext,
  extraHeaders?: Record<string, string>,
): void => {
  // Only a surface with an authorizer gets its answers; any other keeps its API-key refusal.
  const definition =
    kind in surface.gatewayResponses
      ? surface.gatewayResponses[kind as GatewayResponseKind]
      : (surface.authorizerResponses?.[kind as AuthorizerResponseKind] ?? surface.gatewayResponses.API_KEY);
  const body = renderGatewayResponseBody(definition.body, context);
  // An HTTP API names its request id `apigw-requestid` and sends no error type.
  const ids: Record<string, string> =
    surface.frontDoor === 'http-api'
      ? { 'apigw-requestid': context.requestId }
      : { 'x-amzn-RequestId': context.requestId, 'x-amzn-ErrorType': errorTypes[kind] };
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    ...definition.headers,
    ...ids,
    'Content-Length': Buffer.byteLength(body),
    ...extraHeaders,
  };
  res.writeHead(definition.statusCode, headers);
  res.end(body);
};

/** API Gateway's body of a failed or malformed integration (502) and of its own fault (500). */
export const INTERNAL_ERROR = { message: 'Internal server error' };
/** API Gateway's body when the integration timeout runs out (504). */
export const TIMED_OUT = { message: 'Endpoint request timed out' };

/** A plain JSON answer of the gateway itself, with its request id and error type. */
export const sendJson = (res: http.ServerResponse, statusCode: number, body: unknown, requestId: string, errorType?: string): void => {
  const text = JSON.stringify(body);
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    'x-amzn-RequestId': requestId,
    'Content-Length': Buffer.byteLength(text),
  };
  if (errorType) headers['x-amzn-ErrorType'] = errorType;
  res.writeHead(statusCode, headers);
  res.end(text);
};
