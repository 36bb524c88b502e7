/**
 * One request through the local gateway, in API Gateway's order: stage and route (else the
 * surface's MISSING_AUTHENTICATION_TOKEN), the declared body size, the API key (or the request
 * authorizer's usage key) and usage-plan throttle, the body under the cap, then the proxy event to the function and its answer.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type http from 'node:http';
import { surfaces, type SurfaceDefinition } from '../../runtime-contract/route-manifest';
import { formatRequestTime } from './context-values';
import { INTERNAL_ERROR, TIMED_OUT, sendGatewayResponse, sendJson, type GatewayResponseContext } from './gateway-responses';
import type { InvocationOutcome, LambdaInvoker } from './lambda-invoker';
import { proxyEventOf } from './proxy-event';
import { validateProxyResult, writeProxyResponse } from './proxy-result';
import { declaredTooLarge, readBody, rejectTooLarge } from './request-body';
import { matchResource, splitPath, type CompiledResource, type CompiledRoute, type CompiledStage } from './route-table';
import type { UsagePlanGate } from './usage-plan';

/** The OpenAPI document's short local address (docs/API-REFERENCE.md); on AWS it is `/docs/openapi.json` of the docs API. */
const LOCAL_DOCUMENT_ALIAS = '/openapi.json';
/** The campaign console's short local address, `{baseUrl}/console/` (docs/CONSOLE.md); on AWS it is `/prod/api/v2/console/`. */
const LOCAL_CONSOLE_ALIAS = '/console';

/** What the gateway holds between requests. */
export interface GatewayState {
  stages: ReadonlyMap<string, CompiledStage>;
  invoker: LambdaInvoker;
  usagePlan: UsagePlanGate;
  now: () => number;
  host: string;
  /** Public path of the OpenAPI document, served also at LOCAL_DOCUMENT_ALIAS. */
  documentPath: string | undefined;
  /** Public path of the campaign console's page; `/console` and everything under it are served from there. */
  consolePath: string | undefined;
  onInvocation?: (info: { group: string; operation: string; statusCode: number; durationMs: number }) => void;
  /** What `GET /` answers (local/gateway/local-index.ts) for the request's origin. */
  index?: (origin: string) => unknown;
}

/** The request line taken apart, with the ids and time the gateway gives the request. */
interface RequestLine {
  requestId: string;
  requestTimeEpoch: number;
  rawPath: string;
  rawQuery: string;
  gatewayContext: GatewayResponseContext;
}

interface ResolvedRoute {
  stage: CompiledStage;
  resource: CompiledResource;
  compiled: CompiledRoute;
  surface: SurfaceDefinition;
  path: string;
  segments: string[];
}

/**
 * Answers one request; every refusal is the gateway response API Gateway would give.
 *
 * @example
 * http.createServer((req, res) => void handleRequest(state, req, res));
 */
export async function handleRequest(state: GatewayState, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const line = requestLineOf(state, req);
  const resolved = resolveRoute(state, req, res, line);
  if (!resolved) return;
  const { surface } = resolved;
  if (declaredTooLarge(req)) {
    rejectTooLarge(req, res, surface, line.gatewayContext);
    return;
  }
  const admission = await state.usagePlan.admit(req, resolved.compiled);
  if (!admission.admitted) {
    sendGatewayResponse(res, surface, admission.response, line.gatewayContext);
    return;
  }
  const body = await readBody(req, res, surface, line.gatewayContext);
  if (body === 'rejected') return;

  const traceId = `Root=1-${Math.floor(line.requestTimeEpoch / 1000).toString(16)}-${line.requestId.replace(/-/g, '').slice(0, 24)}`;
  const extendedRequestId = randomBytes(10).toString('base64');
  const event = proxyEventOf({
    req,
    stage: resolved.stage,
    resource: resolved.resource,
    path: resolved.path,
    segments: resolved.segments,
    rawPath: line.rawPath,
    rawQuery: line.rawQuery,
    body,
    apiKey: admission.apiKey,
    ...(admission.authorizer ? { authorizer: admission.authorizer } : {}),
    requestId: line.requestId,
    requestTimeEpoch: line.requestTimeEpoch,
    extendedRequestId,
    traceId,
    defaultHost: state.host,
  });
  const started = performance.now();
  const outcome = await state.invoker.invoke(resolved.compiled, event);
  const statusCode = answer(res, outcome, { requestId: line.requestId, extendedRequestId, traceId });
  const { group, operation } = resolved.compiled.route;
  state.onInvocation?.({ group, operation, statusCode, durationMs: performance.now() - started });
}

function requestLineOf(state: GatewayState, req: http.IncomingMessage): RequestLine {
  const requestId = randomUUID();
  const requestTimeEpoch = state.now();
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const requestedPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const rawPath = aliasedPath(state, requestedPath);
  const rawQuery = q === -1 ? '' : rawUrl.slice(q + 1);
  const gatewayContext = { requestId, path: rawPath, httpMethod: req.method ?? 'GET', requestTime: formatRequestTime(requestTimeEpoch) };
  return { requestId, requestTimeEpoch, rawPath, rawQuery, gatewayContext };
}

/** Locally one origin serves every surface: the document at `/openapi.json`, the console under `/console/`. */
function aliasedPath(state: GatewayState, requestedPath: string): string {
  if (requestedPath === LOCAL_DOCUMENT_ALIAS && state.documentPath) return state.documentPath;
  const underConsole = requestedPath === LOCAL_CONSOLE_ALIAS || requestedPath.startsWith(`${LOCAL_CONSOLE_ALIAS}/`);
  if (underConsole && state.consolePath) return `${state.consolePath}${requestedPath.slice(LOCAL_CONSOLE_ALIAS.length)}`;
  return requestedPath;
}

/** `/{stage}{resource}` to a route; undefined once it has answered 404 (no stage) or MISSING_AUTHENTICATION_TOKEN. */
function resolveRoute(state: GatewayState, req: http.IncomingMessage, res: http.ServerResponse, line: RequestLine): ResolvedRoute | undefined {
  const { rawPath } = line;
  if (rawPath === '/' && req.method === 'GET' && state.index) {
    sendJson(res, 200, state.index(`http://${req.headers.host ?? state.host}`), line.requestId);
    return undefined;
  }
  const stageEnd = rawPath.indexOf('/', 1);
  const stageName = stageEnd === -1 ? rawPath.slice(1) : rawPath.slice(1, stageEnd);
  const stage = state.stages.get(stageName);
  if (!stage) {
    sendJson(res, 404, { message: 'Not Found' }, line.requestId, 'NotFoundException');
    return undefined;
  }
  const path = stageEnd === -1 ? '/' : rawPath.slice(stageEnd);
  const segments = splitPath(path);
  const resource = matchResource(stage.resources, segments);
  const compiled = resource?.methods.get(req.method ?? 'GET');
  if (!resource || !compiled) {
    sendGatewayResponse(res, stage.surface, 'MISSING_AUTHENTICATION_TOKEN', line.gatewayContext);
    return undefined;
  }
  return { stage, resource, compiled, surface: surfaces[resource.surface], path, segments };
}

/** Writes the function's answer, or API Gateway's 502 / 504; returns the status code sent. */
function answer(res: http.ServerResponse, outcome: InvocationOutcome, ids: { requestId: string; extendedRequestId: string; traceId: string }): number {
  if (outcome.kind === 'integration-timeout') {
    sendJson(res, 504, TIMED_OUT, ids.requestId, 'InternalServerErrorException');
    return 504;
  }
  const valid = outcome.kind === 'result' ? validateProxyResult(outcome.value) : undefined;
  if (!valid) {
    // A failed or timed-out function, or a malformed result.
    sendJson(res, 502, INTERNAL_ERROR, ids.requestId, 'InternalServerErrorException');
    return 502;
  }
  writeProxyResponse(res, valid, ids);
  return valid.statusCode;
}
