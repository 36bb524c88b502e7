/**
 * A local stand-in for API Gateway REST (v1) APIs with Lambda proxy integration.
 *
 * Serves every route of the manifest at `/{stage}{basePath}{path}` and invokes the group's
 * Lambda handler module in-process with the event and context Lambda would give it. The
 * answers API Gateway gives before any Lambda runs (unknown route, missing or disabled API
 * key, usage-plan throttling, body too large) come from the surface's gateway responses, so
 * clients see the same status codes and bodies locally as in AWS.
 *
 * Generic: it knows routes, surfaces and function sizing, nothing of the business.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID, localLambdaContext } from './lambda-context';
import {
  maxRequestBodyBytes,
  publicPath,
  rateLimitClasses,
  requiresGatewayApiKey,
  resourcePath,
  surfaces,
  type EndpointGroup,
  type GatewayResponseKind,
  type RateLimitClass,
  type RateLimitClassName,
  type RouteDefinition,
  type SurfaceDefinition,
  type SurfaceName,
} from '../runtime-contract/route-manifest';
import { functions } from '../runtime-contract/resource-definitions';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface LocalGatewayOptions {
  port: number; // 0 = random
  host?: string; // default 127.0.0.1
  routes: readonly RouteDefinition[];
  /** Loads the Lambda handler of a group (the runtime passes a dynamic import of functions/<group>/<group>.lambda.ts). Called once per group, cached. */
  loadHandler: (group: EndpointGroup) => Promise<ProxyHandler>;
  /** API Gateway's key store: is this x-api-key value an enabled key in the usage plan of the surface? */
  isApiKeyEnabled: (apiKey: string) => Promise<boolean>;
  /** Optional hook to observe invocations (for logs/benchmarks). */
  onInvocation?: (info: { group: string; operation: string; statusCode: number; durationMs: number }) => void;
  /** Clock (epoch ms) for the usage-plan token buckets and `requestTimeEpoch`. Default `Date.now`. */
  now?: () => number;
  /**
   * Function timeout of a group in ms. Default: `functions[group].timeoutSeconds` from the resource
   * definitions. Lets tests use short timeouts.
   */
  functionTimeoutMs?: (group: EndpointGroup) => number;
  /** API Gateway's integration timeout in ms. Default 29,000 (the REST API default and maximum). */
  integrationTimeoutMs?: number;
  /**
   * A route's gateway settings when they come from elsewhere than the manifest: the deployed-run
   * harness reads the key requirement, usage-plan throttle and function from a synthesized template.
   */
  routeSettings?: (route: RouteDefinition) => Partial<RouteGatewaySettings>;
}

export interface RouteGatewaySettings {
  functionName: string;
  memoryLimitInMB: string;
  throttle: { rateLimit: number; burstLimit: number } | undefined;
  requiresApiKey: boolean;
}

export interface LocalGateway {
  url: string;
  port: number;
  close(): Promise<void>;
}

const DEFAULT_INTEGRATION_TIMEOUT_MS = 29_000;
/** The OpenAPI document's short local address (docs/API-REFERENCE.md); on AWS it is `/docs/openapi.json` of the docs API. */
const LOCAL_DOCUMENT_ALIAS = '/openapi.json';

/** `x-amzn-ErrorType` API Gateway sends with each kind of gateway response. */
const errorTypes: Record<GatewayResponseKind, string> = {
  API_KEY: 'ForbiddenException',
  THROTTLED: 'TooManyRequestsException',
  QUOTA_EXCEEDED: 'LimitExceededException',
  MISSING_AUTHENTICATION_TOKEN: 'MissingAuthenticationTokenException',
  REQUEST_TOO_LARGE: 'RequestEntityTooLargeException',
};

/** Integration response headers API Gateway renames to `x-amzn-Remapped-<name>` (the gateway owns them). */
const remappedResponseHeaders = new Set(['connection', 'content-length', 'date', 'server', 'x-amzn-requestid']);

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

const shortId = (seed: string, length: number): string => {
  const digest = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; out.length < length; i++) out += ((digest[i % digest.length] ?? 0) % 36).toString(36);
  return out;
};

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
/** API Gateway's `requestTime`: `09/Apr/2015:12:34:56 +0000`. */
const formatRequestTime = (epochMs: number): string => {
  const d = new Date(epochMs);
  return `${pad2(d.getUTCDate())}/${months[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad2(d.getUTCHours())}:${pad2(
    d.getUTCMinutes(),
  )}:${pad2(d.getUTCSeconds())} +0000`;
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

// ---------------------------------------------------------------------------------------------
// Routing: a REST API is a tree of resources; a request resolves to the most specific resource
// (static segments before `{param}` ones), then to a method of that resource.
// ---------------------------------------------------------------------------------------------

interface CompiledResource {
  surface: SurfaceName;
  resource: string;
  resourceId: string;
  /** Per segment: a static string, or null for a `{param}` segment. */
  segments: Array<string | null>;
  paramNames: Array<string | undefined>;
  methods: Map<string, CompiledRoute>;
}

interface CompiledRoute {
  route: RouteDefinition;
  resource: CompiledResource;
  functionName: string;
  memoryLimitInMB: string;
  functionTimeoutMs: number;
  throttle: { rateLimit: number; burstLimit: number } | undefined;
  requiresApiKey: boolean;
}

interface CompiledStage {
  stage: string;
  /** Surface whose gateway responses answer unmatched paths of this stage. */
  surface: SurfaceDefinition;
  surfaceName: SurfaceName;
  apiId: string;
  resources: CompiledResource[];
}

const splitPath = (path: string): string[] => {
  // '/a/b' -> ['a', 'b']; a trailing slash is ignored, as API Gateway does.
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed === '/' || trimmed === '' ? [] : trimmed.slice(1).split('/');
};

/** The most specific resource matching `segments`: static segments win position by position. */
const matchResource = (
  resources: readonly CompiledResource[],
  segments: readonly string[],
): CompiledResource | undefined => {
  let best: CompiledResource | undefined;
  for (const candidate of resources) {
    if (candidate.segments.length !== segments.length) continue;
    let ok = true;
    for (let i = 0; i < segments.length; i++) {
      const expected = candidate.segments[i];
      const actual = segments[i] as string;
      if (expected === null ? actual === '' : expected !== actual) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (!best) {
      best = candidate;
      continue;
    }
    for (let i = 0; i < segments.length; i++) {
      const a = candidate.segments[i] !== null;
      const b = best.segments[i] !== null;
      if (a !== b) {
        if (a) best = candidate;
        break;
      }
    }
  }
  return best;
};

// ---------------------------------------------------------------------------------------------
// Usage-plan throttling: a token bucket per (API key, method), as API Gateway usage plans do.
// ---------------------------------------------------------------------------------------------

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const takeToken = (
  buckets: Map<string, Bucket>,
  key: string,
  limit: { rateLimit: number; burstLimit: number },
  now: number,
): boolean => {
  let bucket = buckets.get(key);
  if (!bucket) {
    bucket = { tokens: limit.burstLimit, updatedAt: now };
    buckets.set(key, bucket);
  } else if (now > bucket.updatedAt) {
    bucket.tokens = Math.min(limit.burstLimit, bucket.tokens + ((now - bucket.updatedAt) / 1000) * limit.rateLimit);
    bucket.updatedAt = now;
  }
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
};

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

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
 */
export const renderGatewayResponseBody = (template: string, context: GatewayResponseContext): string =>
  template.replace(/\$context\.(requestId|requestTime|path|httpMethod)\b/g, (_, name: keyof GatewayResponseContext) => JSON.stringify(context[name]).slice(1, -1));

const sendGatewayResponse = (
  res: http.ServerResponse,
  surface: SurfaceDefinition,
  kind: GatewayResponseKind,
  context: GatewayResponseContext,
  extraHeaders?: Record<string, string>,
): void => {
  const definition = surface.gatewayResponses[kind];
  const body = renderGatewayResponseBody(definition.body, context);
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    ...definition.headers,
    'x-amzn-RequestId': context.requestId,
    'x-amzn-ErrorType': errorTypes[kind],
    'Content-Length': Buffer.byteLength(body),
    ...extraHeaders,
  };
  res.writeHead(definition.statusCode, headers);
  res.end(body);
};

const sendJson = (
  res: http.ServerResponse,
  statusCode: number,
  body: unknown,
  requestId: string,
  errorType?: string,
): void => {
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

type HeaderScalar = string | number | boolean;
const isHeaderScalar = (value: unknown): value is HeaderScalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

interface ValidResult {
  statusCode: number;
  headers: Array<[string, string[]]>;
  body: Buffer;
}

/** Validates a Lambda proxy result as API Gateway does; undefined when malformed (→ 502). */
const validateProxyResult = (result: unknown): ValidResult | undefined => {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  const r = result as Record<string, unknown>;
  const statusCode = r.statusCode;
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    return undefined;
  }
  if (r.body !== undefined && r.body !== null && typeof r.body !== 'string') return undefined;
  if (r.isBase64Encoded !== undefined && r.isBase64Encoded !== null && typeof r.isBase64Encoded !== 'boolean') {
    return undefined;
  }
  // headers and multiValueHeaders merge; for a name in both, the multi-value list wins.
  const merged = new Map<string, [string, string[]]>();
  if (r.headers !== undefined && r.headers !== null) {
    if (typeof r.headers !== 'object' || Array.isArray(r.headers)) return undefined;
    for (const [name, value] of Object.entries(r.headers as Record<string, unknown>)) {
      if (value === null || value === undefined) continue;
      if (!isHeaderScalar(value)) return undefined;
      merged.set(name.toLowerCase(), [name, [String(value)]]);
    }
  }
  if (r.multiValueHeaders !== undefined && r.multiValueHeaders !== null) {
    if (typeof r.multiValueHeaders !== 'object' || Array.isArray(r.multiValueHeaders)) return undefined;
    for (const [name, values] of Object.entries(r.multiValueHeaders as Record<string, unknown>)) {
      if (values === null || values === undefined) continue;
      if (!Array.isArray(values) || !values.every(isHeaderScalar)) return undefined;
      merged.set(name.toLowerCase(), [name, values.map(String)]);
    }
  }
  const bodyText = typeof r.body === 'string' ? r.body : '';
  const body = r.isBase64Encoded === true ? Buffer.from(bodyText, 'base64') : Buffer.from(bodyText, 'utf8');
  return { statusCode, headers: [...merged.values()], body };
};

// ---------------------------------------------------------------------------------------------
// The gateway
// ---------------------------------------------------------------------------------------------

const INTERNAL_ERROR = { message: 'Internal server error' };
const TIMED_OUT = { message: 'Endpoint request timed out' };

type InvocationOutcome =
  | { kind: 'result'; value: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'function-timeout' }
  | { kind: 'integration-timeout' };

export function startLocalGateway(options: LocalGatewayOptions): Promise<LocalGateway> {
  const now = options.now ?? Date.now;
  const host = options.host ?? '127.0.0.1';
  const integrationTimeoutMs = options.integrationTimeoutMs ?? DEFAULT_INTEGRATION_TIMEOUT_MS;
  const functionTimeoutMs =
    options.functionTimeoutMs ?? ((group: EndpointGroup) => (functions[group]?.timeoutSeconds ?? 29) * 1000);
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';

  // Stages of every surface (a surface without routes is still an API with gateway responses).
  const stages = new Map<string, CompiledStage>();
  for (const [name, surface] of Object.entries(surfaces) as Array<[SurfaceName, SurfaceDefinition]>) {
    if (!stages.has(surface.stage)) {
      stages.set(surface.stage, {
        stage: surface.stage,
        surface,
        surfaceName: name,
        apiId: shortId(`restapi:${name}`, 10),
        resources: [],
      });
    }
  }
  for (const route of options.routes) {
    const surface = surfaces[route.surface];
    const stage = stages.get(surface.stage);
    if (!stage) throw new Error(`unknown surface ${route.surface}`);
    const resource = resourcePath(route);
    let compiled = stage.resources.find((r) => r.resource === resource);
    if (!compiled) {
      const segments = splitPath(resource);
      compiled = {
        surface: route.surface,
        resource,
        resourceId: shortId(`resource:${route.surface}:${resource}`, 6),
        segments: segments.map((s) => (s.startsWith('{') && s.endsWith('}') ? null : s)),
        paramNames: segments.map((s) => (s.startsWith('{') && s.endsWith('}') ? s.slice(1, -1) : undefined)),
        methods: new Map(),
      };
      stage.resources.push(compiled);
    }
    if (compiled.methods.has(route.method)) throw new Error(`duplicate route ${route.method} ${resource}`);
    const fn = functions[route.group];
    compiled.methods.set(route.method, {
      route,
      resource: compiled,
      functionName: `local-${route.group}`,
      memoryLimitInMB: String(fn?.memoryMb ?? 128),
      functionTimeoutMs: functionTimeoutMs(route.group),
      throttle: rateLimitClassOf(route.rateLimit),
      requiresApiKey: requiresGatewayApiKey(route),
      ...options.routeSettings?.(route),
    });
  }

  // One handler load per group; a failed load (Lambda init error) is retried on the next request.
  const handlers = new Map<EndpointGroup, ProxyHandler>();
  const loading = new Map<EndpointGroup, Promise<ProxyHandler>>();
  const getHandler = (group: EndpointGroup): ProxyHandler | Promise<ProxyHandler> => {
    const ready = handlers.get(group);
    if (ready) return ready;
    let pending = loading.get(group);
    if (!pending) {
      pending = options.loadHandler(group).then(
        (handler) => {
          if (typeof handler !== 'function') throw new TypeError(`handler of ${group} is not a function`);
          handlers.set(group, handler);
          loading.delete(group);
          return handler;
        },
        (error: unknown) => {
          loading.delete(group);
          throw error;
        },
      );
      loading.set(group, pending);
    }
    return pending;
  };

  const buckets = new Map<string, Bucket>();

  const invoke = (compiled: CompiledRoute, event: APIGatewayProxyEvent): Promise<InvocationOutcome> => {
    const group = compiled.route.group;
    const startedAt = Date.now();
    const fnTimeout = compiled.functionTimeoutMs;
    // Lambda's own timeout ends the invocation with an error (API Gateway answers 502); when the
    // integration's 29 s come first, API Gateway answers 504.
    const lambdaTimesOutFirst = fnTimeout < integrationTimeoutMs;
    const deadline = startedAt + fnTimeout;
    const context = localLambdaContext({ functionName: compiled.functionName, region, memoryLimitInMB: compiled.memoryLimitInMB, deadline });
    return new Promise<InvocationOutcome>((resolve) => {
      let settled = false;
      const timer = setTimeout(
        () => {
          if (settled) return;
          settled = true;
          resolve({ kind: lambdaTimesOutFirst ? 'function-timeout' : 'integration-timeout' });
        },
        Math.min(fnTimeout, integrationTimeoutMs),
      );
      const run = async (): Promise<unknown> => {
        const handlerOrPromise = getHandler(group);
        const handler = typeof handlerOrPromise === 'function' ? handlerOrPromise : await handlerOrPromise;
        return handler(event, context);
      };
      run().then(
        (value) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ kind: 'result', value });
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ kind: 'error', error });
        },
      );
    });
  };

  const documentRoute = options.routes.find((route) => route.group === 'docs' && route.operation === 'openApiDocument');
  const documentPath = documentRoute ? publicPath(documentRoute) : undefined;

  const handleRequest = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const requestTimeEpoch = now();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const requestedPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
    // Locally one origin serves every surface, so the document is also at `{baseUrl}/openapi.json`.
    const rawPath = requestedPath === LOCAL_DOCUMENT_ALIAS && documentPath ? documentPath : requestedPath;
    const rawQuery = q === -1 ? '' : rawUrl.slice(q + 1);
    const gatewayContext: GatewayResponseContext = { requestId, path: rawPath, httpMethod: req.method ?? 'GET', requestTime: formatRequestTime(requestTimeEpoch) };

    // `/{stage}{resource}`
    const stageEnd = rawPath.indexOf('/', 1);
    const stageName = stageEnd === -1 ? rawPath.slice(1) : rawPath.slice(1, stageEnd);
    const stage = stages.get(stageName);
    if (!stage) {
      sendJson(res, 404, { message: 'Not Found' }, requestId, 'NotFoundException');
      return;
    }
    const path = stageEnd === -1 ? '/' : rawPath.slice(stageEnd);
    const segments = splitPath(path);
    const resource = matchResource(stage.resources, segments);
    const method = req.method ?? 'GET';
    const compiled = resource?.methods.get(method);
    if (!resource || !compiled) {
      sendGatewayResponse(res, stage.surface, 'MISSING_AUTHENTICATION_TOKEN', gatewayContext);
      return;
    }
    const surface = surfaces[resource.surface];

    // Body cap, first from the declared length.
    const declaredLength = req.headers['content-length'];
    if (declaredLength !== undefined && Number(declaredLength) > maxRequestBodyBytes) {
      rejectTooLarge(req, res, surface, gatewayContext);
      return;
    }

    // apiKeyRequired, then the usage plan's throttle.
    let apiKey: string | null = null;
    if (compiled.requiresApiKey) {
      const header = req.headers['x-api-key'];
      const candidate = Array.isArray(header) ? header[0] : header;
      let enabled = false;
      if (candidate) {
        try {
          enabled = await options.isApiKeyEnabled(candidate);
        } catch {
          // API Gateway's key store does not fail with ours: when the lookup cannot answer, the
          // Lambda authenticates the key itself and reports the outage (503), as it would in AWS.
          enabled = true;
        }
      }
      if (!candidate || !enabled) {
        sendGatewayResponse(res, surface, 'API_KEY', gatewayContext);
        return;
      }
      apiKey = candidate;
      if (compiled.throttle && !takeToken(buckets, `${candidate}\n${method} ${resource.resource}`, compiled.throttle, now())) {
        sendGatewayResponse(res, surface, 'THROTTLED', gatewayContext);
        return;
      }
    }

    const bodyBuffer = await readBody(req, res, surface, gatewayContext);
    if (bodyBuffer === 'rejected') return;

    // Headers as received (name case kept); `headers` keeps the last value of a repeated header.
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
    const sourceIp = normalizeIp(req.socket.remoteAddress);
    const traceId = `Root=1-${Math.floor(requestTimeEpoch / 1000).toString(16)}-${requestId.replace(/-/g, '').slice(0, 24)}`;
    addForwardingHeaders(headers, multiValueHeaders, sourceIp, req.socket.localPort, traceId);

    let pathParameters: Record<string, string> | null = null;
    for (let i = 0; i < resource.paramNames.length; i++) {
      const name = resource.paramNames[i];
      if (name !== undefined) {
        pathParameters ??= {};
        pathParameters[name] = segments[i] as string;
      }
    }

    const query = parseQuery(rawQuery);
    const contentType = req.headers['content-type'];
    let body: string | null = null;
    let isBase64Encoded = false;
    if (bodyBuffer.length > 0) {
      if (isTextualMediaType(contentType)) body = bodyBuffer.toString('utf8');
      else {
        body = bodyBuffer.toString('base64');
        isBase64Encoded = true;
      }
    }
    const hostHeader = req.headers.host ?? host;
    const hostName = hostHeader.startsWith('[') ? hostHeader : (hostHeader.split(':', 1)[0] ?? hostHeader);
    const extendedRequestId = randomBytes(10).toString('base64');

    const event: APIGatewayProxyEvent = {
      resource: resource.resource,
      path,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: query.single,
      multiValueQueryStringParameters: query.multi,
      pathParameters,
      stageVariables: null,
      requestContext: {
        accountId: LOCAL_ACCOUNT_ID,
        apiId: stage.apiId,
        authorizer: null,
        domainName: hostHeader,
        // The default endpoint's prefix is the API id; a named host gives its first label.
        domainPrefix: isIP(hostName) || hostName.startsWith('[') ? stage.apiId : (hostName.split('.', 1)[0] ?? hostName),
        extendedRequestId,
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
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        requestId,
        requestTime: formatRequestTime(requestTimeEpoch),
        requestTimeEpoch,
        resourceId: resource.resourceId,
        resourcePath: resource.resource,
        stage: stage.stage,
      },
      body,
      isBase64Encoded,
    };

    const started = performance.now();
    const outcome = await invoke(compiled, event);
    let statusCode: number;
    if (outcome.kind === 'result') {
      const valid = validateProxyResult(outcome.value);
      if (valid) {
        statusCode = valid.statusCode;
        writeProxyResponse(res, valid, requestId, extendedRequestId, traceId);
      } else {
        statusCode = 502;
        sendJson(res, 502, INTERNAL_ERROR, requestId, 'InternalServerErrorException');
      }
    } else if (outcome.kind === 'integration-timeout') {
      statusCode = 504;
      sendJson(res, 504, TIMED_OUT, requestId, 'InternalServerErrorException');
    } else {
      statusCode = 502;
      sendJson(res, 502, INTERNAL_ERROR, requestId, 'InternalServerErrorException');
    }
    options.onInvocation?.({
      group: compiled.route.group,
      operation: compiled.route.operation,
      statusCode,
      durationMs: performance.now() - started,
    });
  };

  const server = http.createServer((req, res) => {
    handleRequest(req, res).catch(() => {
      // Never let a request take the gateway down; answer as API Gateway would for its own fault.
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal server error' }, randomUUID());
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  return new Promise<LocalGateway>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${urlHost}:${address.port}`,
        port: address.port,
        close: () =>
          new Promise<void>((done, fail) => {
            const force = setTimeout(() => server.closeAllConnections(), 1_000);
            force.unref();
            server.close((error) => {
              clearTimeout(force);
              if (error) fail(error);
              else done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const rateLimitClassOf = (name: RateLimitClassName): { rateLimit: number; burstLimit: number } | undefined => {
  const cls: RateLimitClass = rateLimitClasses[name];
  return cls.usagePlanThrottle;
};


const normalizeIp = (address: string | undefined): string => {
  if (!address) return '127.0.0.1';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
};

const setHeader = (
  headers: Record<string, string>,
  multiValueHeaders: Record<string, string[]>,
  name: string,
  value: string,
): void => {
  headers[name] = value;
  multiValueHeaders[name] = [value];
};

/** Headers API Gateway adds on the way to the integration (kept if the client already sent them). */
const addForwardingHeaders = (
  headers: Record<string, string>,
  multiValueHeaders: Record<string, string[]>,
  sourceIp: string,
  port: number | undefined,
  traceId: string,
): void => {
  let forwardedFor: string | undefined;
  let hasPort = false;
  let hasProto = false;
  let hasTrace = false;
  let forwardedForName = 'X-Forwarded-For';
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === 'x-forwarded-for') {
      forwardedFor = headers[name];
      forwardedForName = name;
    } else if (lower === 'x-forwarded-port') hasPort = true;
    else if (lower === 'x-forwarded-proto') hasProto = true;
    else if (lower === 'x-amzn-trace-id') hasTrace = true;
  }
  setHeader(headers, multiValueHeaders, forwardedForName, forwardedFor ? `${forwardedFor}, ${sourceIp}` : sourceIp);
  if (!hasPort) setHeader(headers, multiValueHeaders, 'X-Forwarded-Port', String(port ?? 80));
  if (!hasProto) setHeader(headers, multiValueHeaders, 'X-Forwarded-Proto', 'http');
  if (!hasTrace) setHeader(headers, multiValueHeaders, 'X-Amzn-Trace-Id', traceId);
};

const writeProxyResponse = (
  res: http.ServerResponse,
  result: ValidResult,
  requestId: string,
  extendedRequestId: string,
  traceId: string,
): void => {
  const out: Record<string, string | string[]> = {};
  let hasContentType = false;
  for (const [name, values] of result.headers) {
    const lower = name.toLowerCase();
    if (remappedResponseHeaders.has(lower)) {
      out[`x-amzn-Remapped-${name}`] = values;
      continue;
    }
    if (lower === 'content-type') hasContentType = true;
    out[name] = values.length === 1 ? (values[0] as string) : values;
  }
  if (!hasContentType) out['Content-Type'] = 'application/json';
  out['x-amzn-RequestId'] = requestId;
  out['x-amz-apigw-id'] = extendedRequestId;
  out['X-Amzn-Trace-Id'] = traceId;
  out['Content-Length'] = String(result.body.length);
  res.writeHead(result.statusCode, out);
  res.end(result.body);
};

/**
 * Answers 413 and stops reading: the rest of the body is discarded as it arrives (never buffered),
 * and the connection is closed after the answer (or dropped if the client keeps sending).
 */
const rejectTooLarge = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  surface: SurfaceDefinition,
  context: GatewayResponseContext,
): void => {
  sendGatewayResponse(res, surface, 'REQUEST_TOO_LARGE', context, { Connection: 'close' });
  if (!req.complete) {
    req.removeAllListeners('data');
    req.resume();
    const drop = setTimeout(() => req.socket.destroy(), 2_000);
    drop.unref();
    req.once('end', () => clearTimeout(drop));
    req.once('close', () => clearTimeout(drop));
  }
};

/** Reads the body up to the cap; answers 413 and returns 'rejected' beyond it. */
const readBody = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  surface: SurfaceDefinition,
  context: GatewayResponseContext,
): Promise<Buffer | 'rejected'> =>
  new Promise((resolve) => {
    if (req.complete && req.readableLength === 0) {
      resolve(Buffer.alloc(0));
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const onData = (chunk: Buffer): void => {
      if (done) return;
      total += chunk.length;
      if (total > maxRequestBodyBytes) {
        done = true;
        chunks.length = 0;
        cleanup();
        rejectTooLarge(req, res, surface, context);
        resolve('rejected');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      if (done) return;
      done = true;
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
    };
    const onError = (): void => {
      if (done) return;
      done = true;
      cleanup();
      resolve('rejected');
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
