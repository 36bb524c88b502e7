/**
 * The one HTTP pipeline every endpoint group's Lambda uses (middy):
 * route → authenticate → parse JSON → rate limit → operation, with one error map.
 *
 * An endpoint group is one Lambda serving several routes of the manifest; the router
 * dispatches on the manifest's `operation`, so the Lambda and the API definition agree.
 */
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import {
  rateLimitClasses,
  routeKey,
  routesOf,
  resourcePath,
  v1PlanLimits,
  type EndpointGroup,
  type RouteDefinition,
} from '../../runtime-contract/route-manifest';
import { MalformedJsonError, PayloadTooLargeError, UnroutableRequestError, UnsupportedContentTypeError } from './errors';
import { describeError } from './error-responses';
import { errorBody } from './surface-responses';
import type { HttpOperation, HttpPipelineDependencies, HttpRequest, HttpResult } from './http-operation';
import { RateLimitExceededError } from '../rate-limiting/errors';
import { logger } from '../observability/logger';

/** Lambda's synchronous payload limit is 6 MB; stop a little earlier with a clear 413. */
export const MAX_JSON_BODY_BYTES = 5 * 1024 * 1024;

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface GroupHandlerOptions<Dependencies> {
  group: EndpointGroup;
  operations: Record<string, HttpOperation<Dependencies>>;
  /** Built lazily on the first request that needs it; omit for groups with no authenticated route. */
  dependencies?: () => Dependencies & HttpPipelineDependencies;
  /** The group's routes; the manifest's by default (tests pass their own). */
  routes?: readonly RouteDefinition[];
}

interface PipelineState<Dependencies> {
  route?: RouteDefinition;
  request?: HttpRequest;
  dependencies?: Dependencies & HttpPipelineDependencies;
  startedAt: number;
}

const lowerCaseHeaders = (event: APIGatewayProxyEvent): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  return headers;
};

const bearerToken = (authorization: string | undefined): string | undefined => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
};

const takesJsonBody = (route: RouteDefinition): boolean =>
  route.body !== 'multipart' && route.body !== 'none' && (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH');

/** The value a rate-limit class counts per, beyond the key. */
function rateLimitBucket(request: HttpRequest): { bucket: string; limitPerMinute: number } | undefined {
  const limitClass = rateLimitClasses[request.route.rateLimit];
  const caller = request.caller;
  const limitPerMinute =
    request.route.rateLimit === 'v1-plan'
      ? v1PlanLimits[(caller?.plan ?? 'starter') as keyof typeof v1PlanLimits] ?? v1PlanLimits.starter
      : limitClass.perMinute;
  if (limitPerMinute <= 0) return undefined;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const scopeValue = (() => {
    switch (limitClass.scope) {
      case 'key':
        return '';
      case 'key-and-sender':
        return `#${String(body.fromPhoneNumber ?? '')}`;
      case 'key-and-phone-number':
        return `#${request.query.phone_number ?? ''}`;
      case 'source-ip':
        return request.sourceIp;
    }
  })();
  const subject = limitClass.scope === 'source-ip' ? 'ip' : (caller?.credentialId ?? 'anonymous');
  return { bucket: `${request.route.rateLimit}#${subject}${scopeValue}`, limitPerMinute };
}

const jsonResponse = (requestId: string, result: HttpResult): APIGatewayProxyResult =>
  result.rawBody
    ? // Binary answers (routes with `binaryResponse`): base64, as Lambda proxy integrations return binary.
      {
        statusCode: result.statusCode,
        headers: { 'Content-Type': 'application/octet-stream', 'X-Request-Id': requestId, ...result.headers },
        body: result.rawBody.toString('base64'),
        isBase64Encoded: true,
      }
    : {
        statusCode: result.statusCode,
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': requestId, ...result.headers },
        body: JSON.stringify(result.body),
      };

export function createGroupHandler<Dependencies>(options: GroupHandlerOptions<Dependencies>): ProxyHandler {
  const routeTable = new Map<string, RouteDefinition>();
  for (const route of options.routes ?? routesOf(options.group)) {
    if (!options.operations[route.operation]) {
      throw new Error(`Group ${options.group} has no operation ${route.operation} for ${route.method} ${route.path}`);
    }
    if ((route.auth !== 'none' || rateLimitClasses[route.rateLimit].perMinute > 0) && !options.dependencies) {
      throw new Error(`Group ${options.group} needs dependencies for ${route.operation}`);
    }
    routeTable.set(routeKey(route.method, resourcePath(route)), route);
  }
  const jsonParser = httpJsonBodyParser();
  const state = new WeakMap<APIGatewayProxyEvent, PipelineState<Dependencies>>();

  const pipeline = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .before(async (request) => {
      const event = request.event;
      const route = routeTable.get(routeKey(event.httpMethod, event.resource));
      state.set(event, { route, startedAt: Date.now() });
      if (!route) throw new UnroutableRequestError(`${event.httpMethod} ${event.resource}`);
      const headers = lowerCaseHeaders(event);
      // middy's parser only looks for two spellings of the header; hand it the normalised one.
      event.headers = headers;
      // Resolved per request (not per module load) so a re-configured process gets fresh services.
      const dependencies = options.dependencies?.();
      state.get(event)!.dependencies = dependencies;
      const receivedAt = dependencies?.clock.now() ?? new Date();
      const httpRequest: HttpRequest = {
        route,
        requestId: event.requestContext?.requestId ?? request.context.awsRequestId,
        receivedAt,
        path: event.requestContext?.path ?? event.path,
        method: event.httpMethod,
        headers,
        query: { ...(event.queryStringParameters as Record<string, string> | null) },
        pathParameters: { ...(event.pathParameters as Record<string, string> | null) },
        body: undefined,
        sourceIp: event.requestContext?.identity?.sourceIp ?? 'unknown',
      };
      state.get(event)!.request = httpRequest;
      logger.appendKeys({ requestId: httpRequest.requestId, operation: route.operation });

      // Authentication waits on the credential store while parsing a large body keeps the CPU busy:
      // run them together, but answer in the same order as one after the other (401 before 400).
      const authentication =
        route.auth === 'none'
          ? undefined
          : dependencies!.authenticate(route.auth, route.auth === 'broadcast-api-key' ? headers['x-api-key'] : bearerToken(headers.authorization));
      authentication?.catch(() => undefined);
      // One turn of the event loop lets the SDK put the credential read on the wire before parsing starts.
      if (authentication && takesJsonBody(route)) await new Promise((resolve) => setImmediate(resolve));
      let bodyError: unknown;
      try {
        if (route.body === 'multipart') {
          httpRequest.rawBody = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
        } else if (takesJsonBody(route)) {
          const size = Buffer.byteLength(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
          if (size > MAX_JSON_BODY_BYTES) throw new PayloadTooLargeError(MAX_JSON_BODY_BYTES);
          try {
            await jsonParser.before!(request);
          } catch (error) {
            const contentType = headers['content-type'];
            throw /json/i.test(contentType ?? '') ? new MalformedJsonError() : new UnsupportedContentTypeError(contentType);
          }
          httpRequest.body = event.body;
        }
      } catch (error) {
        bodyError = error;
      }
      if (authentication) {
        httpRequest.caller = await authentication;
        logger.appendKeys({ organizationId: httpRequest.caller.organizationId });
      }
      if (bodyError !== undefined) throw bodyError;

      const limit = rateLimitBucket(httpRequest);
      if (limit) {
        const decision = await dependencies!.rateLimiter.consume(limit.bucket, limit.limitPerMinute, receivedAt);
        if (!decision.allowed) throw new RateLimitExceededError(decision.retryAfterSeconds, limit.limitPerMinute);
      }
    })
    .handler(async (event) => {
      const { route, request, dependencies } = state.get(event)!;
      const result = await options.operations[route!.operation]!(request!, dependencies as Dependencies);
      return jsonResponse(request!.requestId, result);
    })
    .after(async (request) => {
      const pipelineState = state.get(request.event);
      logger.info('request served', {
        statusCode: request.response?.statusCode,
        durationMs: pipelineState ? Date.now() - pipelineState.startedAt : undefined,
      });
      logger.resetKeys();
    })
    .onError(async (request) => {
      const pipelineState = state.get(request.event);
      const surface = pipelineState?.route?.surface ?? 'broadcast';
      const description = describeError(request.error, surface, pipelineState?.route);
      if (description.statusCode >= 500) logger.error('request failed', { error: request.error as Error });
      else logger.info('request rejected', { statusCode: description.statusCode, code: description.code });
      logger.resetKeys();
      const facts = {
        requestId: pipelineState?.request?.requestId ?? request.event.requestContext?.requestId ?? request.context.awsRequestId,
        path: request.event.requestContext?.path ?? request.event.path,
        method: request.event.httpMethod,
        timestamp: new Date().toISOString(),
      };
      const headers: Record<string, string> =
        description.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(description.retryAfterSeconds) };
      request.response = jsonResponse(facts.requestId, {
        statusCode: description.statusCode,
        headers,
        body: errorBody(surface, description, facts),
      });
    });

  return (event, context) => pipeline(event, context);
}
