/**
 * The REST API proxy event a Lambda receives (an HTTP API's with payload format 1.0 is the same
 * shape, `path` with the stage), built from a Node request as API Gateway builds it:
 * headers as received plus the forwarding headers, query strings decoded, path parameters, the
 * body as text or base64 by media type, and the request context with its identity.
 */
import { isIP } from 'node:net';
import type http from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID } from '../lambda-context';
import { formatRequestTime, shortId } from './context-values';
import { pathParametersOf, type CompiledResource, type CompiledStage } from './route-table';

/** One request, resolved to its stage and resource, with the ids the gateway gave it. */
export interface ProxyRequest {
  req: http.IncomingMessage;
  stage: CompiledStage;
  resource: CompiledResource;
  /** The path after the stage, and its segments. */
  path: string;
  segments: readonly string[];
  /** The path with the stage, as requested (`requestContext.path`). */
  rawPath: string;
  rawQuery: string;
  body: Buffer;
  /** The key a keyed method was metered by (the `x-api-key`, or the one its authorizer named). */
  apiKey: string | null;
  /** What the method's authorizer said of the caller (`principalId` and its context), when it ran. */
  authorizer?: Record<string, string | number | boolean>;
  requestId: string;
  requestTimeEpoch: number;
  extendedRequestId: string;
  traceId: string;
  /** The gateway's host, when the request names none. */
  defaultHost: string;
}

/**
 * The event of one request.
 *
 * @example
 * const event = proxyEventOf({ req, stage, resource, path, segments, rawPath, rawQuery: '', body: Buffer.alloc(0), apiKey: null, requestId, requestTimeEpoch, extendedRequestId, traceId, defaultHost: '127.0.0.1' });
 */
export function proxyEventOf(request: ProxyRequest): APIGatewayProxyEvent {
  const { req, resource, stage } = request;
  // An HTTP API (payload format 1.0) on a named stage keeps the stage in `path`; a REST API drops it.
  const path = stage.surface.frontDoor === 'http-api' ? request.rawPath : request.path;
  const sourceIp = normalizeIp(req.socket.remoteAddress);
  const { headers, multiValueHeaders } = headersOf(req, sourceIp, request.traceId);
  const query = parseQuery(request.rawQuery);
  return {
    resource: resource.resource,
    path,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    pathParameters: pathParametersOf(resource, request.segments),
    stageVariables: null,
    requestContext: requestContextOf(request, sourceIp),
    ...bodyOf(request.body, req.headers['content-type']),
  };
}

function requestContextOf(request: ProxyRequest, sourceIp: string): APIGatewayProxyEvent['requestContext'] {
  const { req, stage, resource, apiKey } = request;
  const hostHeader = req.headers.host ?? request.defaultHost;
  const hostName = hostHeader.startsWith('[') ? hostHeader : (hostHeader.split(':', 1)[0] ?? hostHeader);
  const method = req.method ?? 'GET';
  return {
    accountId: LOCAL_ACCOUNT_ID,
    apiId: stage.apiId,
    authorizer: request.authorizer ?? null,
    domainName: hostHeader,
    // The default endpoint's prefix is the API id; a named host gives its first label.
    domainPrefix: isIP(hostName) || hostName.startsWith('[') ? stage.apiId : (hostName.split('.', 1)[0] ?? hostName),
    extendedRequestId: request.extendedRequestId,
    httpMethod: method,
    identity: {
      accessKey: null,
      accountId: null,
      apiKey,
      apiKeyId: apiKey === null ? null : shortId(`apikey:${apiKey}`, 10),
      caller: null,
      clientCert: null,
      cognitoAuthenticationProvider: null,
      cognitoAuthenticationType: null,
      cognitoIdentityId: null,
      cognitoIdentityPoolId: null,
      principalOrgId: null,
      sourceIp,
      user: null,
      userAgent: req.headers['user-agent'] ?? null,
      userArn: null,
    },
    path: request.rawPath,
    protocol: `HTTP/${req.httpVersion}`,
    requestId: request.requestId,
    requestTime: formatRequestTime(request.requestTimeEpoch),
    requestTimeEpoch: request.requestTimeEpoch,
    resourceId: resource.resourceId,
    resourcePath: resource.resource,
    stage: stage.stage,
  };
}

/** Media types passed to Lambda as text; every other body is passed base64-encoded (binary media type). */
const isTextualMediaType = (contentType: string | undefined): boolean => {
  if (!contentType) return true;
  const type = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (type === '' || type.startsWith('text/')) return true;
  if (type.startsWith('multipart/')) return false;
  return (
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/x-www-form-urlencoded' ||
    type === 'application/javascript' ||
    type === 'application/graphql' ||
    type === 'application/x-ndjson'
  );
};

const bodyOf = (buffer: Buffer, contentType: string | undefined): { body: string | null; isBase64Encoded: boolean } => {
  if (buffer.length === 0) return { body: null, isBase64Encoded: false };
  if (isTextualMediaType(contentType)) return { body: buffer.toString('utf8'), isBase64Encoded: false };
  return { body: buffer.toString('base64'), isBase64Encoded: true };
};

/** Query values as API Gateway gives them: `+` is a space, percent-decoded, raw when malformed. */
const decodeQueryComponent = (raw: string): string => {
  const spaced = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
};

interface ParsedQuery {
  single: Record<string, string> | null;
  multi: Record<string, string[]> | null;
}

const parseQuery = (rawQuery: string): ParsedQuery => {
  if (rawQuery === '') return { single: null, multi: null };
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  let any = false;
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decodeQueryComponent(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decodeQueryComponent(part.slice(eq + 1));
    single[key] = value;
    const list = multi[key];
    if (list) list.push(value);
    else multi[key] = [value];
    any = true;
  }
  return any ? { single, multi } : { single: null, multi: null };
};

const normalizeIp = (address: string | undefined): string => {
  if (!address) return '127.0.0.1';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
};

/** Headers as received (name case kept; `headers` keeps the last value of a repeated one) and the forwarding headers. */
function headersOf(
  req: http.IncomingMessage,
  sourceIp: string,
  traceId: string,
): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const value = raw[i + 1] as string;
    headers[name] = value;
    const list = multiValueHeaders[name];
    if (list) list.push(value);
    else multiValueHeaders[name] = [value];
  }
  addForwardingHeaders(headers, multiValueHeaders, sourceIp, req.socket.localPort, traceId);
  return { headers, multiValueHeaders };
}

/** Headers API Gateway adds on the way to the integration (kept if the client already sent them). */
function addForwardingHeaders(
  headers: Record<string, string>,
  multiValueHeaders: Record<string, string[]>,
  sourceIp: string,
  port: number | undefined,
  traceId: string,
): void {
  const set = (name: string, value: string): void => {
    headers[name] = value;
    multiValueHeaders[name] = [value];
  };
  let forwardedFor: string | undefined;
  let forwardedForName = 'X-Forwarded-For';
  const present = new Set<string>();
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === 'x-forwarded-for') {
      forwardedFor = headers[name];
      forwardedForName = name;
    } else present.add(lower);
  }
  set(forwardedForName, forwardedFor ? `${forwardedFor}, ${sourceIp}` : sourceIp);
  if (!present.has('x-forwarded-port')) set('X-Forwarded-Port', String(port ?? 80));
  if (!present.has('x-forwarded-proto')) set('X-Forwarded-Proto', 'http');
  if (!present.has('x-amzn-trace-id')) set('X-Amzn-Trace-Id', traceId);
}
