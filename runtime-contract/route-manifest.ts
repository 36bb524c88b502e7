/**
 * The route manifest: surfaces, auth kinds, rate-limit classes and every route of the service
 * except the /upstream ones, which `upstream-manifest-routes.ts` builds from the upstream route
 * table. `all-routes.ts` joins the two into the one complete list that the CDK app (REST APIs,
 * methods, usage plans, integrations) and the local gateway use, so the deployed API and the
 * local one cannot drift.
 *
 * Split so that a Lambda bundles only the route data it serves: every group but the wrapper
 * takes its routes from here and never loads the ~25 KiB /upstream table.
 *
 * Pure data: no CDK or AWS SDK imports, so Lambdas and the local runtime can load it.
 */
import type { FrontDoorKind, HttpApiSurfaceName, HttpMethod, RestApiSurfaceName, SurfaceName } from './http-types';
import { errorBody } from '../shared/http/surface-responses';
import { routeGuards, type MethodThrottle, type RouteGuardName } from './route-guards';
import { personRoleFor } from './person-access';
import type { RateLimitClassName } from './rate-limit-classes';
import { isCredentialAuth, type AuthKind } from './route-keys';
import type { PersonRole } from '../shared/people/person-role';

/** Each surface is its own API (REST or HTTP, its `frontDoor`) whose single stage name is the first path segment. */
export type { FrontDoorKind, HttpApiSurfaceName, RestApiSurfaceName, SurfaceName } from './http-types';

export type { AuthKind, CredentialAuthKind } from './route-keys';

/**
 * One Lambda per endpoint group. A group's routes share code, grants and sizing.
 * `chunk-worker` has no routes: it consumes the outbound-message queue.
 */
export type EndpointGroup =
  | 'health'
  | 'broadcast-discovery'
  | 'broadcast-send'
  | 'broadcast-status'
  /** The earlier generate-key operation (no key; issues one), the organization's own API keys (/api-keys) and its contact policy (/contact-policy). */
  | 'broadcast-keys'
  /** Organization administration (remove-employee-bulk). */
  | 'organization-admin'
  /** Generic v1 API: contacts and conversations. */
  | 'v1-inbox'
  /** The /upstream Cloud API wrapper (routes generated from runtime-contract/upstream-routes.ts). */
  | 'upstream-wrapper'
  /** Meta's webhooks: verification handshake and signed event batches stored to the metaEvents queue. */
  | 'meta-webhook'
  /** Customer webhook endpoints: register, list, delete, test, redeliver (docs/CUSTOMER-WEBHOOKS.md). */
  | 'broadcast-webhooks'
  /** Saved audiences and their members (docs/CAMPAIGNS.md "Audiences"). */
  | 'broadcast-audiences'
  /** The API reference: the generated OpenAPI document and the rendered page (docs/API-REFERENCE.md). */
  | 'docs'
  /** The campaign console: its page and bundled files, on the broadcast surface so it calls the API same-origin (docs/CONSOLE.md). */
  | 'console'
  /** Campaigns: create, list, read and launch (docs/CAMPAIGNS.md). */
  | 'broadcast-campaigns'
  /** Who is calling (`/me`) and the organization's people: invite, change a role, remove (docs/PEOPLE.md "People"). */
  | 'broadcast-people'
  /** The audit log's reader: GET /audit-log (docs/PEOPLE.md "Audit log"). */
  | 'broadcast-audit'
  /** Tracked links' redirect: GET and HEAD /r/{token} on the clicks surface (docs/OUTCOMES.md "Tracked links"). */
  | 'click-redirect';

/** Re-exported: handlers and the CDK app name methods through the manifest. */
export type { HttpMethod } from './http-types';

// Rate-limit classes and the route key: a module of their own, which the HTTP pipeline imports without the routes.
export { rateLimitClasses, v1PlanLimits, type RateLimitClass, type RateLimitClassName, type V1Plan } from './rate-limit-classes';
export { isCredentialAuth, routeKey } from './route-keys';

/**
 * Answers API Gateway gives before any Lambda runs (unknown route, missing or invalid API key,
 * throttled, body too large). Configured as gateway responses in AWS and served the same by the
 * local gateway, in each surface's own error body. `$context.requestId` is substituted.
 */
export type GatewayResponseKind = 'API_KEY' | 'THROTTLED' | 'QUOTA_EXCEEDED' | 'MISSING_AUTHENTICATION_TOKEN' | 'REQUEST_TOO_LARGE';

/**
 * What API Gateway answers for a surface's Lambda authorizer (docs/PEOPLE.md "On AWS"): its refusal
 * (the literal `Unauthorized`), an explicit Deny, and its failure (an error or a timeout of the function).
 */
export type AuthorizerResponseKind = 'UNAUTHORIZED' | 'ACCESS_DENIED' | 'AUTHORIZER_FAILURE';

export interface GatewayResponse {
  statusCode: number;
  body: string;
  headers?: Record<string, string>;
}

export interface SurfaceDefinition {
  /** What serves it in AWS (http-types.ts `FrontDoorKind`); the local gateway serves every kind the same way, with the kind's own refusals. */
  frontDoor: FrontDoorKind;
  /** API Gateway stage name and first URL path segment. */
  stage: string;
  /** Resource prefix inside the stage, e.g. `/api/v2`. */
  basePath: string;
  description: string;
  /** Answers of the front door itself. An HTTP API cannot word them: its surface lists `httpApiGatewayResponses`. */
  gatewayResponses: Record<GatewayResponseKind, GatewayResponse>;
  /** The answers of its Lambda authorizer, for a surface whose keyed methods have one (the broadcast surface). */
  authorizerResponses?: Record<AuthorizerResponseKind, GatewayResponse>;
}

const broadcastGatewayError = (statusCode: number, message: string, headers?: Record<string, string>): GatewayResponse => ({
  statusCode,
  headers,
  body: JSON.stringify({ status: false, status_code: statusCode, message, requestId: '$context.requestId', data: {} }),
});
const organizationGatewayError = (statusCode: number, message: string, headers?: Record<string, string>): GatewayResponse => ({
  statusCode,
  headers,
  body: JSON.stringify({ statusCode, status: 'error', message, data: { error: { message } } }),
});
const v1GatewayError = (statusCode: number, code: string, message: string, headers?: Record<string, string>): GatewayResponse => ({
  statusCode,
  headers,
  body: JSON.stringify({ success: false, error: { code, message } }),
});
/**
 * The plain refusal `{ "error": { "code", "message", "requestId" } }`: the docs surface's gateway
 * answers (and the webhook function's own refusals, shared/http/surface-responses.ts; Meta only
 * reads the status code).
 */
const webhooksGatewayError = (statusCode: number, code: string, message: string, headers?: Record<string, string>): GatewayResponse => ({
  statusCode,
  headers,
  body: JSON.stringify({ error: { code, message, requestId: '$context.requestId' } }),
});
const upstreamGatewayError = (statusCode: number, message: string, headers?: Record<string, string>): GatewayResponse => ({
  statusCode,
  headers,
  body: JSON.stringify({
    status: false,
    message,
    error: { message, type: 'GatewayError', code: statusCode, error_subcode: 0, fbtrace_id: '$context.requestId' },
  }),
});

/**
 * The usage plan's 429s in the application's own 429 shape per surface (errorBody, as the rate
 * limiter answers: `retryAfterSeconds` in the body, `Retry-After` header), so a client handles one
 * shape whoever throttled it. A gateway response template only substitutes variables (no VTL), so
 * the wait is fixed: 1 s for throttling (the token bucket refills every second); for the daily
 * quota, which resets at 00:00 UTC and cannot be counted down here, an hour. `timestamp` is
 * API Gateway's `$context.requestTime` (`15/Jan/2025:10:20:30 +0000`), not ISO 8601: the only
 * clock a template has.
 */
export const gatewayRetryAfterSeconds = { THROTTLED: 1, QUOTA_EXCEEDED: 3600 } as const;

const gatewayRequestFacts = { requestId: '$context.requestId', path: '$context.path', method: '$context.httpMethod', timestamp: '$context.requestTime' };

const gatewayTooManyRequests = (surface: SurfaceName, kind: keyof typeof gatewayRetryAfterSeconds, message: string): GatewayResponse => {
  const retryAfterSeconds = gatewayRetryAfterSeconds[kind];
  const code = kind === 'THROTTLED' ? 'RATE_LIMITED' : 'QUOTA_EXCEEDED';
  return {
    statusCode: 429,
    headers: { 'Retry-After': String(retryAfterSeconds) },
    body: JSON.stringify(errorBody(surface, { statusCode: 429, code, message, retryAfterSeconds }, gatewayRequestFacts)),
  };
};

/**
 * What an HTTP API answers itself: fixed `{"message": …}` bodies it offers no setting for (no
 * gateway responses, no `Retry-After`). Listed so the local gateway answers as AWS does. An HTTP
 * API surface has no API keys and no usage plans, so API_KEY and QUOTA_EXCEEDED never happen there.
 */
export const httpApiGatewayResponses: Record<GatewayResponseKind, GatewayResponse> = {
  API_KEY: { statusCode: 403, body: JSON.stringify({ message: 'Forbidden' }) },
  THROTTLED: { statusCode: 429, body: JSON.stringify({ message: 'Too Many Requests' }) },
  QUOTA_EXCEEDED: { statusCode: 429, body: JSON.stringify({ message: 'Too Many Requests' }) },
  MISSING_AUTHENTICATION_TOKEN: { statusCode: 404, body: JSON.stringify({ message: 'Not Found' }) },
  REQUEST_TOO_LARGE: { statusCode: 413, body: JSON.stringify({ message: 'Request Entity Too Large' }) },
};

/** A surface's definition, its front door tied to its name's type (`HttpApiSurfaceName`). */
type SurfaceOf<S extends SurfaceName> = SurfaceDefinition & { frontDoor: S extends HttpApiSurfaceName ? 'http-api' : 'rest-api' };

export const surfaces: { readonly [S in SurfaceName]: SurfaceOf<S> } = {
  broadcast: {
    frontDoor: 'rest-api',
    stage: 'prod',
    basePath: '/api/v2',
    description: 'Public broadcast API',
    gatewayResponses: {
      API_KEY: broadcastGatewayError(401, 'Missing or invalid API key'),
      THROTTLED: gatewayTooManyRequests('broadcast', 'THROTTLED', 'Too many requests for this API key'),
      QUOTA_EXCEEDED: gatewayTooManyRequests('broadcast', 'QUOTA_EXCEEDED', 'Request quota of this API key exceeded'),
      MISSING_AUTHENTICATION_TOKEN: broadcastGatewayError(404, 'Route not found'),
      REQUEST_TOO_LARGE: broadcastGatewayError(413, 'Request body too large'),
    },
    // Keyed methods ask the request authorizer (an API key, or a person's sign-in). Its refusal is the
    // same answer a missing key always had: no key and no valid sign-in are one case to the gateway.
    authorizerResponses: {
      UNAUTHORIZED: broadcastGatewayError(401, 'Missing or invalid API key'),
      ACCESS_DENIED: broadcastGatewayError(403, 'Forbidden'),
      AUTHORIZER_FAILURE: broadcastGatewayError(503, 'The credentials could not be checked; try again', { 'Retry-After': '1' }),
    },
  },
  organization: {
    frontDoor: 'rest-api',
    stage: 'v2',
    basePath: '',
    description: 'Organization administration',
    gatewayResponses: {
      API_KEY: organizationGatewayError(401, 'Invalid access token'),
      THROTTLED: gatewayTooManyRequests('organization', 'THROTTLED', 'Too many requests'),
      QUOTA_EXCEEDED: gatewayTooManyRequests('organization', 'QUOTA_EXCEEDED', 'Request quota exceeded'),
      MISSING_AUTHENTICATION_TOKEN: organizationGatewayError(404, 'Route not found'),
      REQUEST_TOO_LARGE: organizationGatewayError(413, 'Request body too large'),
    },
  },
  v1: {
    frontDoor: 'rest-api',
    stage: 'v1',
    basePath: '',
    description: 'Generic v1 API (contacts, conversations, opt-outs)',
    gatewayResponses: {
      API_KEY: v1GatewayError(401, 'UNAUTHORIZED', 'Missing or invalid API key'),
      THROTTLED: gatewayTooManyRequests('v1', 'THROTTLED', 'Too many requests'),
      QUOTA_EXCEEDED: gatewayTooManyRequests('v1', 'QUOTA_EXCEEDED', 'Request quota exceeded'),
      MISSING_AUTHENTICATION_TOKEN: v1GatewayError(404, 'NOT_FOUND', 'Route not found'),
      REQUEST_TOO_LARGE: v1GatewayError(413, 'PAYLOAD_TOO_LARGE', 'Request body too large'),
    },
  },
  upstream: {
    frontDoor: 'rest-api',
    stage: 'staging',
    basePath: '/api/v2',
    description: 'WhatsApp Cloud API wrapper',
    gatewayResponses: {
      API_KEY: upstreamGatewayError(401, 'Missing, invalid or expired access token'),
      THROTTLED: gatewayTooManyRequests('upstream', 'THROTTLED', 'Too many requests'),
      QUOTA_EXCEEDED: gatewayTooManyRequests('upstream', 'QUOTA_EXCEEDED', 'Request quota exceeded'),
      MISSING_AUTHENTICATION_TOKEN: upstreamGatewayError(404, 'Route not found'),
      REQUEST_TOO_LARGE: upstreamGatewayError(413, 'Request body too large'),
    },
  },
  /**
   * Meta's webhooks (docs/DELIVERY-STATUS.md "Webhook endpoint"): no API key, `/hooks/meta/whatsapp`.
   * An HTTP API: Meta sends one status per POST unless under load, so the price per request decides
   * the webhook's cost (docs/OPERATIONS.md "Front doors", docs/PERFORMANCE.md §5).
   */
  webhooks: {
    frontDoor: 'http-api',
    stage: 'hooks',
    basePath: '',
    description: 'Webhooks from Meta (WhatsApp Cloud API)',
    gatewayResponses: httpApiGatewayResponses,
  },
  /** The API reference (docs/API-REFERENCE.md): public, no key; refusals in the webhook surface's plain shape. */
  docs: {
    frontDoor: 'rest-api',
    stage: 'docs',
    basePath: '',
    description: 'API reference: the OpenAPI document and the rendered page',
    gatewayResponses: {
      API_KEY: webhooksGatewayError(403, 'FORBIDDEN', 'Forbidden'),
      THROTTLED: gatewayTooManyRequests('docs', 'THROTTLED', 'Too many requests'),
      QUOTA_EXCEEDED: gatewayTooManyRequests('docs', 'QUOTA_EXCEEDED', 'Request quota exceeded'),
      MISSING_AUTHENTICATION_TOKEN: webhooksGatewayError(404, 'NOT_FOUND', 'Route not found'),
      REQUEST_TOO_LARGE: webhooksGatewayError(413, 'PAYLOAD_TOO_LARGE', 'Request body too large'),
    },
  },
  /**
   * Tracked links (docs/OUTCOMES.md "Tracked links"): `{clickBaseUrl}/r/{token}`, public, no key; its
   * own REST API so its per-IP WAF rule and method throttle guard it apart from every tenant's API.
   * The URL of its stage is CLICK_BASE_URL (the stack output `ClickBaseUrl`).
   */
  clicks: {
    frontDoor: 'rest-api',
    stage: 'l',
    basePath: '',
    description: 'Tracked links: the redirect of a link sent in a template button',
    gatewayResponses: {
      API_KEY: webhooksGatewayError(403, 'FORBIDDEN', 'Forbidden'),
      THROTTLED: gatewayTooManyRequests('clicks', 'THROTTLED', 'Too many requests'),
      QUOTA_EXCEEDED: gatewayTooManyRequests('clicks', 'QUOTA_EXCEEDED', 'Request quota exceeded'),
      MISSING_AUTHENTICATION_TOKEN: webhooksGatewayError(404, 'NOT_FOUND', 'Route not found'),
      REQUEST_TOO_LARGE: webhooksGatewayError(413, 'PAYLOAD_TOO_LARGE', 'Request body too large'),
    },
  },
};

/** API Gateway REST and HTTP APIs accept at most 10 MB of request payload. */
export const maxRequestBodyBytes = 10 * 1024 * 1024;

export interface RouteDefinition {
  surface: SurfaceName;
  method: HttpMethod;
  /** Path below the surface's basePath, with `{param}` placeholders as API Gateway writes them. */
  path: string;
  group: EndpointGroup;
  /** Name of the operation inside the group's Lambda; the group's router dispatches on it. */
  operation: string;
  auth: AuthKind;
  rateLimit: RateLimitClassName;
  /** The class of the route's `?dryRun=true` requests, when it has a dry run (counted in the application only). */
  dryRunRateLimit?: RateLimitClassName;
  /**
   * Request body kind; multipart bodies arrive base64-encoded. `none`: a POST that reads no body (no Content-Type needed).
   * `raw`: the operation gets the exact bytes (`request.rawBody`), never parsed (signed webhooks).
   */
  body?: 'json' | 'multipart' | 'none' | 'raw';
  /** The route can answer binary content (base64 from the Lambda); the REST API then lists application/octet-stream as binary. */
  binaryResponse?: boolean;
  /** Client message of every 400 answer of this route, when its contract words it (the error body keeps its surface shape). */
  badRequestMessage?: string;
  /** Client message of every 5xx answer of this route, when its contract words it. */
  serverErrorMessage?: string;
  /**
   * The route's own answer to a missing or unknown credential (the earlier operations answer 400
   * "User is not signed up yet"). API Gateway could not word it, so such a route is not key-checked
   * at the gateway; the Lambda authenticates and answers.
   */
  unauthorizedAnswer?: { statusCode: number; message: string };
  /**
   * The method-level throttle and per-IP WAF rule of a route no usage plan meters (`route-guards.ts`);
   * every such route has one (`needsRouteGuard`).
   */
  guard?: RouteGuardName;
  /**
   * The least role a person needs to call the route with their own sign-in (`Authorization: Bearer`);
   * absent: people may not (the route takes the organization's API key). Filled from
   * `person-access.ts` by operation, never written in a row.
   */
  people?: PersonRole;
}

/** API Gateway itself rejects a missing or unknown `x-api-key` (usage-plan key) before the Lambda runs. */
export const requiresGatewayApiKey = (route: RouteDefinition): boolean => route.auth === 'broadcast-api-key' && !route.unauthorizedAnswer;

/**
 * Routes no usage plan meters and no Bearer credential of their own surface's stage protects: the
 * unauthenticated ones, Meta's signed webhooks, and keyed routes whose key the function checks
 * (`unauthorizedAnswer`). Each needs its own guard, or it would share the stage's per-method
 * default with the keyed tenants' methods (route-guards.ts).
 */
export const needsRouteGuard = (route: RouteDefinition): boolean =>
  !isCredentialAuth(route.auth) || (route.auth === 'broadcast-api-key' && !requiresGatewayApiKey(route));

/** A route's stage method-level throttle, from its guard; undefined: the stage's default applies. */
export const methodThrottleOf = (route: RouteDefinition): MethodThrottle | undefined => (route.guard ? routeGuards[route.guard].methodThrottle : undefined);

const broadcast = (
  method: HttpMethod,
  path: string,
  group: EndpointGroup,
  operation: string,
  auth: AuthKind,
  rateLimit: RateLimitClassName,
): RouteDefinition => ({ surface: 'broadcast', method, path: `/broadcast/public${path}`, group, operation, auth, rateLimit });

/** The earlier operations answer an unknown key with 400 "User is not signed up yet" (contract). */
const earlierSend = (path: string, operation: string): RouteDefinition => ({
  ...broadcast('POST', path, 'broadcast-send', operation, 'broadcast-api-key', 'earlier-send'),
  unauthorizedAnswer: { statusCode: 400, message: 'User is not signed up yet' },
  guard: 'earlier-send',
});

/** Generic v1 API: Bearer v1 key, per-plan limit (checked in the application; see docs/ORGANIZATIONS-AND-V1.md). */
const v1 = (method: HttpMethod, path: string, operation: string): RouteDefinition => ({
  surface: 'v1',
  method,
  path,
  group: 'v1-inbox',
  operation,
  auth: 'v1-api-key',
  rateLimit: 'v1-plan',
});

/** A broadcast-api-key route people may call gets its role from `person-access.ts`. */
const withPersonAccess = (route: RouteDefinition): RouteDefinition => {
  const people = route.auth === 'broadcast-api-key' ? personRoleFor(route.operation) : undefined;
  return people ? { ...route, people } : route;
};

/** Every route but the /upstream ones (those: `upstream-manifest-routes.ts`; all: `all-routes.ts`). */
export const serviceRoutes: readonly RouteDefinition[] = (
  [
    { ...broadcast('GET', '/health', 'health', 'health', 'none', 'none'), guard: 'health' },
    broadcast('GET', '/phone-numbers', 'broadcast-discovery', 'listPhoneNumbers', 'broadcast-api-key', 'phone-numbers'),
    broadcast('GET', '/templates', 'broadcast-discovery', 'listTemplates', 'broadcast-api-key', 'templates'),
    {
      ...broadcast('POST', '/send-template-broadcast', 'broadcast-send', 'sendTemplateBroadcast', 'broadcast-api-key', 'template-broadcast'),
      dryRunRateLimit: 'broadcast-dry-run',
    },
    broadcast('GET', '/status/{jobId}', 'broadcast-status', 'getJobStatus', 'broadcast-api-key', 'status'),
    // Shares the status class, so status polls and recipient reads of a key count in one bucket.
    broadcast('GET', '/broadcasts/{jobId}/recipients', 'broadcast-status', 'listRecipients', 'broadcast-api-key', 'status'),
    broadcast('GET', '/broadcasts', 'broadcast-status', 'listBroadcasts', 'broadcast-api-key', 'status'),
    // A campaign's recipients are its job's (docs/CAMPAIGNS.md "Recipients and follow-ups"): the same group and class.
    broadcast('GET', '/campaigns/{campaignId}/recipients', 'broadcast-status', 'listCampaignRecipients', 'broadcast-api-key', 'status'),
    broadcast('POST', '/send-freeform', 'broadcast-send', 'sendFreeform', 'broadcast-api-key', 'freeform'),
    // In broadcast-send for its messaging write; the status class, as a status read of the same job.
    { ...broadcast('POST', '/broadcasts/{jobId}/cancel', 'broadcast-send', 'cancelJob', 'broadcast-api-key', 'status'), body: 'none' },
    { ...broadcast('POST', '/broadcasts/{jobId}/resume', 'broadcast-send', 'resumeJob', 'broadcast-api-key', 'status'), body: 'none' },
    // A person's pause (docs/BROADCAST.md "Pausing a job"): beside cancel and resume, the same class.
    { ...broadcast('POST', '/broadcasts/{jobId}/pause', 'broadcast-send', 'pauseJob', 'broadcast-api-key', 'status'), body: 'none' },
    // A campaign's controls are its job's (docs/CAMPAIGNS.md "Pause, resume and cancel"): the same group and class.
    { ...broadcast('POST', '/campaigns/{campaignId}/pause', 'broadcast-send', 'pauseCampaign', 'broadcast-api-key', 'status'), body: 'none' },
    { ...broadcast('POST', '/campaigns/{campaignId}/resume', 'broadcast-send', 'resumeCampaign', 'broadcast-api-key', 'status'), body: 'none' },
    { ...broadcast('POST', '/campaigns/{campaignId}/cancel', 'broadcast-send', 'cancelCampaign', 'broadcast-api-key', 'status'), body: 'none' },
    // The job follow-up's class (docs/CAMPAIGNS.md "Recipients and follow-ups").
    {
      ...broadcast('POST', '/campaigns/{campaignId}/follow-up', 'broadcast-send', 'campaignFollowUp', 'broadcast-api-key', 'template-broadcast'),
      dryRunRateLimit: 'broadcast-dry-run',
    },
    // An accept like send-template-broadcast's: its class, counted per key and the body's sender (docs/BROADCAST.md "Follow-ups").
    {
      ...broadcast('POST', '/broadcasts/{jobId}/follow-up', 'broadcast-send', 'followUp', 'broadcast-api-key', 'template-broadcast'),
      dryRunRateLimit: 'broadcast-dry-run',
    },
    { ...broadcast('POST', '/generate-key', 'broadcast-keys', 'generateKey', 'none', 'key-generation'), guard: 'key-generation' },
    broadcast('POST', '/webhooks', 'broadcast-webhooks', 'registerWebhook', 'broadcast-api-key', 'webhooks'),
    broadcast('GET', '/webhooks', 'broadcast-webhooks', 'listWebhooks', 'broadcast-api-key', 'webhooks'),
    { ...broadcast('DELETE', '/webhooks/{webhookId}', 'broadcast-webhooks', 'deleteWebhook', 'broadcast-api-key', 'webhooks'), body: 'none' },
    { ...broadcast('POST', '/webhooks/{webhookId}/test', 'broadcast-webhooks', 'testWebhook', 'broadcast-api-key', 'webhooks'), body: 'none' },
    broadcast('POST', '/webhooks/{webhookId}/redeliver', 'broadcast-webhooks', 'redeliverWebhook', 'broadcast-api-key', 'webhooks'),
    broadcast('POST', '/audiences', 'broadcast-audiences', 'createAudience', 'broadcast-api-key', 'audiences'),
    broadcast('GET', '/audiences', 'broadcast-audiences', 'listAudiences', 'broadcast-api-key', 'audiences'),
    broadcast('GET', '/audiences/{audienceId}', 'broadcast-audiences', 'getAudience', 'broadcast-api-key', 'audiences'),
    { ...broadcast('DELETE', '/audiences/{audienceId}', 'broadcast-audiences', 'deleteAudience', 'broadcast-api-key', 'audiences'), body: 'none' },
    broadcast('POST', '/audiences/{audienceId}/members', 'broadcast-audiences', 'upsertMembers', 'broadcast-api-key', 'audiences'),
    // A DELETE naming the members to remove in its JSON body.
    { ...broadcast('DELETE', '/audiences/{audienceId}/members', 'broadcast-audiences', 'removeMembers', 'broadcast-api-key', 'audiences'), body: 'json' },
    broadcast('GET', '/audiences/{audienceId}/members', 'broadcast-audiences', 'listMembers', 'broadcast-api-key', 'audiences'),
    earlierSend('/send-single', 'sendSingle'),
    earlierSend('/send-bulk', 'sendBulk'),
    // Listed by the health inventory of the earlier description; an alias of send-bulk (docs/FREEFORM-AND-EARLIER.md).
    earlierSend('/send-bulk-standard', 'sendBulk'),
    // Campaigns (docs/CAMPAIGNS.md): creating one is an accept like a broadcast's (per key and the body's sender); reads share the status class.
    broadcast('POST', '/campaigns', 'broadcast-campaigns', 'createCampaign', 'broadcast-api-key', 'template-broadcast'),
    broadcast('GET', '/campaigns', 'broadcast-campaigns', 'listCampaigns', 'broadcast-api-key', 'status'),
    broadcast('GET', '/campaigns/{campaignId}', 'broadcast-campaigns', 'getCampaign', 'broadcast-api-key', 'status'),
    // A launch is an accept like a broadcast's: its class (the campaign's sender is not in a body, so the key's shared bucket).
    {
      ...broadcast('POST', '/campaigns/{campaignId}/launch', 'broadcast-campaigns', 'launchCampaign', 'broadcast-api-key', 'template-broadcast'),
      body: 'none',
      dryRunRateLimit: 'broadcast-dry-run',
    },
    // Who is calling and the organization's people (docs/PEOPLE.md "People"): a person's sign-in or the organization's key.
    broadcast('GET', '/me', 'broadcast-people', 'getMe', 'broadcast-api-key', 'people'),
    broadcast('GET', '/people', 'broadcast-people', 'listPeople', 'broadcast-api-key', 'people'),
    broadcast('POST', '/people', 'broadcast-people', 'invitePerson', 'broadcast-api-key', 'people'),
    broadcast('PATCH', '/people/{personId}', 'broadcast-people', 'setPersonRole', 'broadcast-api-key', 'people'),
    { ...broadcast('DELETE', '/people/{personId}', 'broadcast-people', 'removePerson', 'broadcast-api-key', 'people'), body: 'none' },
    // The audit log (docs/PEOPLE.md "Audit log"): newest first, filtered by actor and action.
    broadcast('GET', '/audit-log', 'broadcast-audit', 'listAuditLog', 'broadcast-api-key', 'audit'),
    // The organization's own API keys (docs/PEOPLE.md "API keys"): an admin's sign-in or the organization's key.
    broadcast('GET', '/api-keys', 'broadcast-keys', 'listApiKeys', 'broadcast-api-key', 'api-keys'),
    broadcast('POST', '/api-keys', 'broadcast-keys', 'createApiKey', 'broadcast-api-key', 'api-keys'),
    { ...broadcast('DELETE', '/api-keys/{credentialId}', 'broadcast-keys', 'revokeApiKey', 'broadcast-api-key', 'api-keys'), body: 'none' },
    // The organization's contact policy, its frequency cap (docs/CAMPAIGNS.md "Frequency caps"): read by anyone of it, changed by an admin or the organization's key.
    broadcast('GET', '/contact-policy', 'broadcast-keys', 'getContactPolicy', 'broadcast-api-key', 'contact-policy'),
    broadcast('PUT', '/contact-policy', 'broadcast-keys', 'setContactPolicy', 'broadcast-api-key', 'contact-policy'),
    { ...broadcast('DELETE', '/contact-policy', 'broadcast-keys', 'removeContactPolicy', 'broadcast-api-key', 'contact-policy'), body: 'none' },
    {
      surface: 'organization',
      method: 'POST',
      path: '/organizations/public/remove-employee-bulk',
      group: 'organization-admin',
      operation: 'removeEmployeeBulk',
      auth: 'organization-token',
      rateLimit: 'organization-admin',
      badRequestMessage: 'No email IDs provided',
      serverErrorMessage: 'Something went wrong while removing employees',
    },
    v1('GET', '/contacts', 'listContacts'),
    v1('POST', '/contacts', 'createContact'),
    v1('GET', '/contacts/{contactId}', 'getContact'),
    v1('GET', '/conversations', 'listConversations'),
    v1('POST', '/conversations', 'createConversation'),
    v1('GET', '/conversations/{conversationId}', 'getConversation'),
    v1('PATCH', '/conversations/{conversationId}', 'updateConversation'),
    // The suppression list (docs/ORGANIZATIONS-AND-V1.md "Opt-outs").
    v1('GET', '/opt-outs', 'listOptOuts'),
    v1('POST', '/opt-outs', 'createOptOut'),
    { ...v1('DELETE', '/opt-outs/{phoneNumber}', 'deleteOptOut'), body: 'none' },
    // Meta's webhooks: /hooks/meta/whatsapp (docs/DELIVERY-STATUS.md "Webhook endpoint").
    {
      surface: 'webhooks',
      method: 'GET',
      path: '/meta/whatsapp',
      group: 'meta-webhook',
      operation: 'verifyMetaSubscription',
      auth: 'meta-signature',
      rateLimit: 'none',
      guard: 'meta-verification',
    },
    {
      surface: 'webhooks',
      method: 'POST',
      path: '/meta/whatsapp',
      group: 'meta-webhook',
      operation: 'receiveMetaEvents',
      auth: 'meta-signature',
      rateLimit: 'none',
      body: 'raw',
      guard: 'meta-webhook',
    },
    // The API reference (docs/API-REFERENCE.md): /docs (the page), /docs/openapi.json, /docs/assets/<renderer file>.
    { surface: 'docs', method: 'GET', path: '/', group: 'docs', operation: 'docsPage', auth: 'none', rateLimit: 'none', guard: 'docs' },
    { surface: 'docs', method: 'GET', path: '/openapi.json', group: 'docs', operation: 'openApiDocument', auth: 'none', rateLimit: 'none', guard: 'docs' },
    { surface: 'docs', method: 'GET', path: '/assets/{file}', group: 'docs', operation: 'docsAsset', auth: 'none', rateLimit: 'none', guard: 'docs' },
    // The campaign console (docs/CONSOLE.md): /prod/api/v2/console (the page) and its bundled files. On the
    // broadcast surface so the page calls the API on its own origin; no key: the page holds none, the browser signs in.
    { surface: 'broadcast', method: 'GET', path: '/console', group: 'console', operation: 'consolePage', auth: 'none', rateLimit: 'none', guard: 'console' },
    {
      surface: 'broadcast',
      method: 'GET',
      path: '/console/assets/{file}',
      group: 'console',
      operation: 'consoleAsset',
      auth: 'none',
      rateLimit: 'none',
      guard: 'console',
    },
    // Tracked links (docs/OUTCOMES.md "Tracked links"): the redirect; HEAD answers the same and counts nothing.
    {
      surface: 'clicks',
      method: 'GET',
      path: '/r/{token}',
      group: 'click-redirect',
      operation: 'followLink',
      auth: 'none',
      rateLimit: 'none',
      guard: 'click-redirect',
    },
    {
      surface: 'clicks',
      method: 'HEAD',
      path: '/r/{token}',
      group: 'click-redirect',
      operation: 'followLink',
      auth: 'none',
      rateLimit: 'none',
      guard: 'click-redirect',
    },
  ] satisfies RouteDefinition[]
).map(withPersonAccess);

/** The surfaces served by each kind of front door. */
export const restApiSurfaceNames = (Object.keys(surfaces) as SurfaceName[]).filter(
  (name): name is RestApiSurfaceName => surfaces[name].frontDoor === 'rest-api',
);
export const httpApiSurfaceNames = (Object.keys(surfaces) as SurfaceName[]).filter(
  (name): name is HttpApiSurfaceName => surfaces[name].frontDoor === 'http-api',
);

/** Path of a route inside its API (what API Gateway reports as `event.resource`, REST and HTTP API payload 1.0 alike). */
export const resourcePath = (route: RouteDefinition): string => `${surfaces[route.surface].basePath}${route.path}`;

/** Public URL path of a route, stage included: `/prod/api/v2/broadcast/public/health`. */
export const publicPath = (route: RouteDefinition): string => `/${surfaces[route.surface].stage}${resourcePath(route)}`;

/** The routes of a group other than the wrapper (its routes: `upstreamManifestRoutes`). */
export const serviceRoutesOf = (group: Exclude<EndpointGroup, 'upstream-wrapper'>): RouteDefinition[] => serviceRoutes.filter((route) => route.group === group);
