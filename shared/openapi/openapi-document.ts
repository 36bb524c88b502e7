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
import { routes as allRoutes } from '../../runtime-contract/all-routes';
import {
  methodThrottleOf,
  publicPath,
  rateLimitClasses,
  surfaces,
  v1PlanLimits,
  type AuthKind,
  type RouteDefinition,
} from '../../runtime-contract/route-manifest';
import { upstreamRoutes, type UpstreamRouteSpec } from '../../runtime-contract/upstream-routes';
import { errorBodySchemas, gatewayFailureSchema } from './error-schemas';
import { successResponsesOf } from './response-schemas';
import { errorResponseRefsOf, surfaceErrorResponses } from './error-response-objects';
import { parametersOf, requestBodyOf, type ParameterObject } from './request-objects';

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
