/**
 * The OpenAPI 3.1 document of every surface, generated: routes, auth and rate limits from the
 * route manifest (`runtime-contract/all-routes.ts`), request bodies and parameters from the
 * handlers' valibot schemas (`request-schemas.ts`) or, for /upstream, the upstream route table,
 * error answers from the one error table (`shared/http/error-responses.ts`) in each surface's
 * error body. Nothing here lists a route by hand: a route added to the manifest appears here, and
 * a route without a described success answer fails the build (and its test).
 *
 * Served by the `docs` group at `/docs/openapi.json` (and locally at `/openapi.json`), written to a
 * file by `npm run openapi -- --out <file>`.
 */
import { jsonSchemaOf } from './json-schema-of';
import { routes as allRoutes } from '../../runtime-contract/all-routes';
import {
  methodThrottleOf,
  publicPath,
  rateLimitClasses,
  surfaces,
  v1PlanLimits,
  type AuthKind,
  type RouteDefinition,
  type SurfaceName,
} from '../../runtime-contract/route-manifest';
import { upstreamRoutes, type UpstreamRouteSpec } from '../../runtime-contract/upstream-routes';
import { errorAnswers, genericServerError } from '../http/error-responses';
import { errorBody } from '../http/surface-responses';
import { requestExamples, requestSchemas } from './request-schemas';
import { errorBodySchemas, gatewayFailureSchema } from './error-schemas';
import { successResponsesOf, type JsonSchema } from './response-schemas';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  servers: Record<string, unknown>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: Record<string, unknown>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody?: Record<string, unknown>;
  responses: Record<string, Record<string, unknown>>;
  'x-rate-limit': Record<string, unknown>;
  'x-endpoint-group': string;
}

export interface OpenApiOptions {
  /** The service version shown in `info.version`. */
  version?: string;
  /** The routes to describe (default: every route of the manifest). */
  routes?: readonly RouteDefinition[];
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;

const securitySchemes = {
  broadcastApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Broadcast API key (also an API Gateway usage-plan key).' },
  organizationToken: { type: 'http', scheme: 'bearer', description: 'Organization token, shown to the organization’s admin.' },
  upstreamAccessToken: { type: 'http', scheme: 'bearer', description: 'Upstream access token of the /upstream wrapper.' },
  v1ApiKey: { type: 'http', scheme: 'bearer', description: 'v1 API key (plan-limited: starter 60, professional 300, enterprise 1,000 requests per minute).' },
  personSignIn: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A person’s own sign-in: an OpenID Connect ID token (or access token) of a configured issuer; `x-organization-id` names the organization when they belong to several (docs/PEOPLE.md "Tokens").',
  },
} as const;

const securityOf = (auth: AuthKind): Record<string, string[]>[] => {
  switch (auth) {
    case 'broadcast-api-key':
      return [{ broadcastApiKey: [] }];
    case 'organization-token':
      return [{ organizationToken: [] }];
    case 'upstream-access-token':
      return [{ upstreamAccessToken: [] }];
    case 'v1-api-key':
      return [{ v1ApiKey: [] }];
    case 'none':
    case 'meta-signature':
      return [];
  }
};

const tagOf = (route: RouteDefinition, upstream?: UpstreamRouteSpec): string => (upstream ? `upstream: ${upstream.area}` : route.surface);

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const camel = (segment: string): string => segment.replace(/[-_](\w)/g, (_all, letter: string) => letter.toUpperCase());

/** Unique across surfaces (`listPhoneNumbers` is a broadcast and an /upstream operation; send-bulk-standard shares sendBulk). */
const operationIdOf = (route: RouteDefinition, taken: Set<string>): string => {
  let id = `${route.surface}${capitalize(route.operation)}`;
  if (taken.has(id)) {
    const last =
      route.path
        .split('/')
        .filter((segment) => segment && !segment.startsWith('{'))
        .pop() ?? route.method.toLowerCase();
    id = `${route.surface}${capitalize(camel(last))}`;
  }
  if (taken.has(id)) throw new Error(`OpenAPI: duplicate operationId ${id}`);
  taken.add(id);
  return id;
};

const rateLimitOf = (route: RouteDefinition): { extension: Record<string, unknown>; text: string } => {
  const limit = rateLimitClasses[route.rateLimit];
  const throttle = 'usagePlanThrottle' in limit ? limit.usagePlanThrottle : undefined;
  const methodThrottle = methodThrottleOf(route);
  const extension = {
    class: route.rateLimit,
    perMinute: limit.perMinute,
    scope: limit.scope,
    ...(throttle ? { usagePlanThrottle: throttle } : {}),
    ...(methodThrottle ? { methodThrottle } : {}),
  };
  // A guarded route's gateway throttle counts every caller together (runtime-contract/route-guards.ts).
  const gateway = methodThrottle
    ? ` The gateway admits ${methodThrottle.rateLimit} requests per second from all callers together (bursts of ${methodThrottle.burstLimit}).`
    : '';
  if (route.rateLimit === 'v1-plan') {
    const plans = Object.entries(v1PlanLimits)
      .map(([plan, perMinute]) => `${plan} ${perMinute}`)
      .join(', ');
    return { extension: { ...extension, perMinuteByPlan: v1PlanLimits }, text: `Rate limit: per key by plan (${plans} requests per minute).${gateway}` };
  }
  if (limit.perMinute === 0) return { extension, text: `Rate limit: none of its own.${gateway}` };
  const per = {
    key: 'API key',
    'key-and-sender': 'API key and sender number',
    'key-and-phone-number': 'API key and `phone_number`',
    'source-ip': 'source IP address',
  }[limit.scope];
  return { extension, text: `Rate limit: ${limit.perMinute} requests per minute per ${per}; above it 429 with \`Retry-After\`.${gateway}` };
};

const pathParameterNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);

type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
  description?: string;
};

function parametersOf(route: RouteDefinition, upstream: UpstreamRouteSpec | undefined): ParameterObject[] {
  const schemas = requestSchemas[`${route.surface}:${route.operation}`];
  const pathSchema = schemas?.path ? jsonSchemaOf(schemas.path) : undefined;
  const parameters: ParameterObject[] = pathParameterNames(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: ((pathSchema?.properties as Record<string, JsonSchema> | undefined)?.[name] ?? { type: 'string' }) as JsonSchema,
  }));
  if (schemas?.query) {
    const query = jsonSchemaOf(schemas.query);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>)) {
      parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  if (upstream) {
    const required = new Set([...(upstream.requiredQuery ?? []), ...(upstream.fieldExpansion?.required ?? [])]);
    const names = new Set([
      ...(upstream.method === 'GET' ? ['fields'] : []),
      ...(upstream.query ?? []),
      ...required,
      ...(upstream.fieldExpansion?.optional ?? []),
    ]);
    for (const name of names) parameters.push({ name, in: 'query', required: required.has(name), schema: { type: 'string' } });
  }
  if (route.operation === 'sendTemplateBroadcast' || route.operation === 'followUp' || route.operation === 'campaignFollowUp') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      description: 'One logical broadcast: a retry with the same key and body gets the first answer and sends nothing twice.',
    });
  }
  if (route.auth === 'meta-signature' && route.method === 'POST') {
    parameters.push({
      name: 'X-Hub-Signature-256',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^sha256=' },
      description: 'HMAC-SHA256 of the raw body with the Meta app secret.',
    });
  }
  if (route.auth === 'meta-signature' && route.method === 'GET') {
    for (const name of ['hub.mode', 'hub.verify_token', 'hub.challenge']) parameters.push({ name, in: 'query', required: true, schema: { type: 'string' } });
  }
  return parameters;
}

function upstreamBodySchema(upstream: UpstreamRouteSpec): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const name of upstream.requiredBody ?? []) properties[name] = {};
  for (const [name, values] of Object.entries(upstream.bodyEnums ?? {})) properties[name] = { enum: [...values] };
  return { type: 'object', properties, required: [...(upstream.requiredBody ?? [])], additionalProperties: true };
}

function requestBodyOf(route: RouteDefinition, upstream: UpstreamRouteSpec | undefined): Record<string, unknown> | undefined {
  const kind = route.body ?? (route.method === 'GET' || route.method === 'DELETE' ? 'none' : 'json');
  if (kind === 'none') return undefined;
  if (kind === 'raw') {
    return {
      required: true,
      description: 'Meta’s webhook batch, signed as sent (the exact bytes are verified).',
      content: { 'application/json': { schema: { type: 'object' } } },
    };
  }
  if (kind === 'multipart') {
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            required: ['file'],
            additionalProperties: true,
          },
        },
      },
    };
  }
  const key = `${route.surface}:${route.operation}`;
  const schema = requestSchemas[key]?.body;
  const example = requestExamples[key];
  return {
    required: true,
    content: {
      'application/json': {
        schema: schema ? jsonSchemaOf(schema) : upstream ? upstreamBodySchema(upstream) : { type: 'object' },
        ...(example === undefined ? {} : { example }),
      },
    },
  };
}

/** Every status the error table and the gateway can answer, with the client codes it carries. */
function errorStatuses(surface: SurfaceName): Map<number, Set<string>> {
  const statuses = new Map<number, Set<string>>();
  const add = (status: number, code: string) => {
    const codes = statuses.get(status) ?? new Set<string>();
    codes.add(code);
    statuses.set(status, codes);
  };
  for (const answer of errorAnswers) add(answer.statusCode, answer.code);
  for (const [kind, response] of Object.entries(surfaces[surface].gatewayResponses)) add(response.statusCode, `gateway ${kind}`);
  // The keyed methods' request authorizer (docs/PEOPLE.md "On AWS"): its refusal, deny and failure.
  for (const [kind, response] of Object.entries(surfaces[surface].authorizerResponses ?? {})) add(response.statusCode, `gateway ${kind}`);
  add(genericServerError.statusCode, genericServerError.code);
  return statuses;
}

/**
 * The application's 429 (its exact wait) and the gateway's (one second) carry it, and so do store-fault
 * 503s; Meta's own 429 passed through by /upstream (UPSTREAM_RATE_LIMITED) does not, hence optional
 * there, nor does an HTTP API's own 429 (the webhooks surface's route throttle), hence optional there too.
 */
const retryAfterHeader = (required: boolean) => ({
  'Retry-After': { description: 'Seconds to wait before retrying.', required, schema: { type: 'integer', minimum: 0 } },
});

/**
 * The error answers of a surface, one shared response per status (`#/components/responses/<surface><status>`):
 * every status the error table, the gateway and API Gateway itself can give, with the client codes
 * it carries and an example built by the surface's own `errorBody`.
 */
function surfaceErrorResponses(surface: SurfaceName): Record<string, Record<string, unknown>> {
  const responses: Record<string, Record<string, unknown>> = {};
  const facts = {
    requestId: 'c0ffee00-1234-4abc-9def-000000000000',
    path: `/${surfaces[surface].stage}/…`,
    method: 'POST',
    timestamp: '2026-03-01T09:00:00.000Z',
  };
  const bodyRef = { $ref: `#/components/schemas/${surface}Error` };
  // An HTTP API answers its own refusals in fixed `{ message }` bodies (runtime-contract `httpApiGatewayResponses`).
  const httpApi = surfaces[surface].frontDoor === 'http-api';
  const gatewayStatuses = new Set(Object.values(surfaces[surface].gatewayResponses).map((response) => response.statusCode));
  const failureRef = { $ref: '#/components/schemas/GatewayFailure' };
  for (const [status, codes] of [...errorStatuses(surface)].sort(([a], [b]) => a - b)) {
    const code = [...codes].find((candidate) => !candidate.startsWith('gateway ')) ?? 'ERROR';
    const retry = status === 429 ? { retryAfterSeconds: 12 } : {};
    const example = errorBody(
      surface,
      { statusCode: status, code, message: status >= 500 ? 'Service temporarily unavailable; retry with backoff' : 'Explains the broken rule', ...retry },
      facts,
    );
    const schema = status === 502 || (httpApi && gatewayStatuses.has(status)) ? { anyOf: [bodyRef, failureRef] } : bodyRef;
    responses[`${surface}${status}`] = {
      description: `Codes: ${[...codes].join(', ')}`,
      ...(status === 429 || status === 503 ? { headers: retryAfterHeader(status === 429 && surface !== 'upstream' && !httpApi) } : {}),
      content: { 'application/json': { schema, example } },
    };
  }
  responses[`${surface}504`] = {
    description: 'The function did not answer within the gateway’s timeout',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/GatewayFailure' }, example: { message: 'Endpoint request timed out' } } },
  };
  return responses;
}

const errorResponseRefsOf = (route: RouteDefinition): Record<string, Record<string, unknown>> =>
  Object.fromEntries(
    [...errorStatuses(route.surface).keys(), 504]
      .sort((a, b) => a - b)
      .map((status) => [String(status), { $ref: `#/components/responses/${route.surface}${status}` }]),
  );

function operationOf(route: RouteDefinition, taken: Set<string>): OpenApiOperation {
  const upstream = route.surface === 'upstream' ? upstreamRoutes.find((row) => row.operation === route.operation) : undefined;
  const rateLimit = rateLimitOf(route);
  const responses: Record<string, Record<string, unknown>> = {};
  for (const success of successResponsesOf(route.surface, route.operation, route.binaryResponse === true)) {
    responses[success.status] = {
      description: success.description,
      ...(success.headers ? { headers: success.headers } : {}),
      ...(success.content ? { content: success.content } : {}),
    };
  }
  // A refusal the operation describes itself (the tracked links' plain 404 page) is not replaced by its surface's JSON error.
  for (const [status, reference] of Object.entries(errorResponseRefsOf(route))) responses[status] ??= reference;
  const lines = [
    upstream ? `Calls the Graph API: \`${upstream.upstream.method} /{version}${upstream.upstream.path}\`.${upstream.notes ? ` ${upstream.notes}.` : ''}` : '',
    route.unauthorizedAnswer ? `A missing or unknown key answers ${route.unauthorizedAnswer.statusCode} "${route.unauthorizedAnswer.message}".` : '',
    route.people ? `People may call it with their own sign-in (role \`${route.people}\` or above); an API key as well.` : '',
    rateLimit.text,
  ].filter(Boolean);
  const parameters = parametersOf(route, upstream);
  const requestBody = requestBodyOf(route, upstream);
  return {
    operationId: operationIdOf(route, taken),
    summary: upstream?.summary ?? summaryOf(route),
    description: lines.join('\n\n'),
    tags: [tagOf(route, upstream)],
    security: route.people ? [...securityOf(route.auth), { personSignIn: [] }] : securityOf(route.auth),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    'x-rate-limit': rateLimit.extension,
    'x-endpoint-group': route.group,
  };
}

/** "sendTemplateBroadcast" → "Send template broadcast". */
const summaryOf = (route: RouteDefinition): string => {
  const words = route.operation
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase()
    .trim();
  return capitalize(words);
};

export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const routeList = options.routes ?? allRoutes;
  const taken = new Set<string>();
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Map<string, string>();
  for (const route of routeList) {
    const operation = operationOf(route, taken);
    const method = route.method.toLowerCase();
    if (!HTTP_METHODS.includes(method as (typeof HTTP_METHODS)[number])) throw new Error(`OpenAPI: unsupported method ${route.method}`);
    const path = publicPath(route);
    paths[path] = { ...paths[path], [method]: operation };
    const tag = operation.tags[0] as string;
    if (!tags.has(tag))
      tags.set(tag, tag.startsWith('upstream: ') ? `${surfaces.upstream.description}: ${tag.slice('upstream: '.length)}` : surfaces[route.surface].description);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'WhatsApp business-messaging platform',
      version: options.version ?? '2.0.0',
      description:
        'Every surface of the service, generated from the route manifest and the request schemas. Each surface is its own REST API whose stage is the first path segment (`/prod`, `/v2`, `/v1`, `/staging`, `/hooks`, `/docs`); locally one gateway serves them all under one origin.',
    },
    servers: [
      {
        url: '/',
        description:
          'The origin serving this document: the local gateway (npm start) or a custom domain mapping every surface’s stage. On AWS without one, each surface has its own host (stack outputs `<Surface>ApiUrl`, stage included).',
      },
    ],
    tags: [...tags].map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes,
      responses: Object.assign({}, ...[...new Set(routeList.map((route) => route.surface))].map(surfaceErrorResponses)),
      schemas: {
        ...Object.fromEntries(Object.entries(errorBodySchemas).map(([surface, schema]) => [`${surface}Error`, schema])),
        GatewayFailure: gatewayFailureSchema,
      },
    },
  };
}
