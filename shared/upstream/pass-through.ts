/**
 * The generic use case behind every ordinary /upstream route: validate what the route table says
 * (query parameters, required body fields), resolve the business account (isolation check, 404),
 * check template/flow ids against the account, build the Graph request from the table row, call,
 * and hand back Meta's status and body unchanged.
 */
import type { OwnedIdCheck, UpstreamRouteSpec } from '../../runtime-contract/upstream-routes';
import { RequestValidationError } from '../http/errors';
import { idsInBody } from './body-ids';
import { callGraph, scopedByMeta } from './call-upstream';
import type { GraphRequest, GraphResponse } from './graph-transport';
import { requireBodyIdsOwned, requireOwnedIds, sentMessageIds } from './owned-ids';
import { requireUpstreamId, resolveTarget, type ResolvedTarget } from './resolve-target';
import type { UpstreamWrapperDependencies } from './ports';
import { outcomeOfFailure, prepareSend, recordUpstreamSends, type PreparedSend, type UpstreamSend } from './upstream-sends';

export interface WrapperRequest {
  organizationId: string;
  pathParameters: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  /** Parsed JSON body (JSON routes). */
  body: unknown;
}

export interface PassThroughResult {
  status: number;
  body: unknown;
}

/** `{param}` placeholders of a template replaced from our path (each value URI-encoded for paths). */
export function fillPath(template: string, pathParameters: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = pathParameters[name];
    if (value === undefined) throw new Error(`Path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
}

const fillValue = (value: unknown, pathParameters: Readonly<Record<string, string>>): unknown => {
  if (typeof value === 'string') return value.replace(/\{(\w+)\}/g, (match, name: string) => pathParameters[name] ?? match);
  if (Array.isArray(value)) return value.map((item) => fillValue(item, pathParameters));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillValue(item, pathParameters)]));
  return value;
};

/** Query parameters a route accepts from the caller. */
export function acceptedQuery(route: UpstreamRouteSpec): string[] {
  const accepted = [...(route.query ?? [])];
  if (route.fieldExpansion) accepted.push(...route.fieldExpansion.required, ...route.fieldExpansion.optional);
  else if (route.method === 'GET' && route.fixedQuery?.fields === undefined) accepted.push('fields');
  return accepted;
}

/** A list in a query value: `[1,2]`, `["1","2"]` or `1,2`. */
export function parseIdList(value: string): string[] {
  return value
    .replace(/^\s*\[/, '')
    .replace(/\]\s*$/, '')
    .split(',')
    .map((item) => item.trim().replace(/^"(.*)"$/, '$1'))
    .filter((item) => item.length > 0);
}

/** Characters an analytics parameter may have: no parentheses, so a value cannot extend the field expression. */
const EXPANSION_VALUE = /^[A-Za-z0-9_.,:\-[\]" ]+$/;

/** `analytics.start(1).end(2).granularity(DAY).country_codes(["US","BR"])` from the query. */
export function expandFields(expansion: NonNullable<UpstreamRouteSpec['fieldExpansion']>, query: Readonly<Record<string, string>>): string {
  let expression = expansion.field;
  for (const name of expansion.required) expression += `.${name}(${query[name]})`;
  for (const name of expansion.optional) {
    const value = query[name];
    if (value === undefined || value === '') continue;
    const list = value.trim().startsWith('[') ? value.trim() : JSON.stringify(parseIdList(value));
    expression += `.${name}(${list})`;
  }
  return expression;
}

/** Checks the caller's query against the route; returns what goes upstream (fixed values applied). */
export function upstreamQuery(
  route: UpstreamRouteSpec,
  query: Readonly<Record<string, string>>,
  pathParameters: Readonly<Record<string, string>>,
): Record<string, string> {
  const accepted = acceptedQuery(route);
  for (const name of Object.keys(query)) {
    if (!accepted.includes(name)) {
      throw new RequestValidationError(
        accepted.length > 0
          ? `query parameter ${name} is not supported on this route; supported: ${accepted.join(', ')}`
          : `query parameter ${name} is not supported on this route; it takes none`,
      );
    }
  }
  const required = [...(route.requiredQuery ?? []), ...(route.fieldExpansion?.required ?? [])];
  for (const name of required) {
    if (query[name] === undefined || query[name] === '') throw new RequestValidationError(`query parameter ${name} is required`);
  }
  const result: Record<string, string> = {};
  if (route.fieldExpansion) {
    for (const name of [...route.fieldExpansion.required, ...route.fieldExpansion.optional]) {
      const value = query[name];
      if (value !== undefined && value !== '' && !EXPANSION_VALUE.test(value)) {
        throw new RequestValidationError(`query parameter ${name} may contain letters, digits, _ . , : - [ ] " and spaces only`);
      }
    }
    result.fields = expandFields(route.fieldExpansion, query);
  } else {
    for (const [name, value] of Object.entries(query)) result[name] = value;
  }
  for (const [name, value] of Object.entries(route.fixedQuery ?? {})) result[name] = fillValue(value, pathParameters) as string;
  return result;
}

/** Checks the caller's JSON body against the route; returns what goes upstream. */
export function upstreamBody(route: UpstreamRouteSpec, body: unknown, pathParameters: Readonly<Record<string, string>>): Record<string, unknown> | undefined {
  if (route.body !== 'json') return undefined;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new RequestValidationError('body must be a JSON object');
  }
  const given = (body ?? {}) as Record<string, unknown>;
  for (const name of route.requiredBody ?? []) {
    if (given[name] === undefined || given[name] === null || given[name] === '') throw new RequestValidationError(`body.${name} is required`);
  }
  for (const [name, allowed] of Object.entries(route.bodyEnums ?? {})) {
    if (given[name] !== undefined && !allowed.includes(given[name] as string)) {
      throw new RequestValidationError(`body.${name} must be one of ${allowed.join(', ')}`);
    }
  }
  const fixed = fillValue(route.fixedBody ?? {}, pathParameters) as Record<string, unknown>;
  // messaging_product first (as Meta's examples), and whatever the caller sent replaced.
  return route.messagingProduct ? { ...{ messaging_product: 'whatsapp' }, ...given, ...fixed, ...{ messaging_product: 'whatsapp' } } : { ...given, ...fixed };
}

/** The ids of one owned-id check found in the request (path, query list or body field). */
function idsOf(check: OwnedIdCheck, request: WrapperRequest): string[] {
  const raw =
    check.source === 'path'
      ? request.pathParameters[check.name]
      : check.source === 'query'
        ? request.query[check.name]
        : ((request.body ?? {}) as Record<string, unknown>)[check.name];
  if (raw === undefined || raw === null || raw === '') {
    if (check.required)
      throw new RequestValidationError(
        `${check.source === 'body' ? 'body' : check.source === 'query' ? 'query parameter' : 'path parameter'} ${check.name} is required`,
      );
    return [];
  }
  const values = check.source === 'query' ? parseIdList(String(raw)) : [String(raw)];
  return values.map((value) => requireUpstreamId(value, check.kind));
}

/**
 * 404 unless every template/flow/QR code id of the request belongs to the resolved business account
 * (or number), and every id inside the body (`bodyIds`) to the organization.
 */
export async function checkOwnedIds(
  deps: UpstreamWrapperDependencies,
  route: UpstreamRouteSpec,
  target: ResolvedTarget,
  request: WrapperRequest,
): Promise<void> {
  for (const check of route.ownedIds ?? []) {
    await requireOwnedIds(deps, check.kind, idsOf(check, request), target, route.operation);
  }
  if (route.bodyIds) await requireBodyIdsOwned(deps, target, idsInBody(route.bodyIds, request.body), route.operation);
}

/** Validates the parts of a request that need no upstream call; throws RequestValidationError. */
export function validateRequest(
  route: UpstreamRouteSpec,
  request: WrapperRequest,
): { query: Record<string, string>; body: Record<string, unknown> | undefined } {
  for (const [name, value] of Object.entries(request.pathParameters)) {
    if (name !== 'wabaId' && name !== 'phoneNumberId')
      requireUpstreamId(value, name === 'mediaId' ? 'media' : name === 'qrCodeId' ? 'qr-code' : name === 'flowId' ? 'flow' : 'template');
  }
  return { query: upstreamQuery(route, request.query, request.pathParameters), body: upstreamBody(route, request.body, request.pathParameters) };
}

export async function passThrough(deps: UpstreamWrapperDependencies, route: UpstreamRouteSpec, request: WrapperRequest): Promise<PassThroughResult> {
  if (route.target === 'organization') throw new Error(`Route ${route.operation} has no single target; it needs its own handler`);
  const { query, body: validBody } = validateRequest(route, request);
  // Sends carry our callback data (the caller's own is kept in the send record).
  const prepared = route.send && validBody ? prepareSend(deps, validBody) : undefined;
  const body = prepared?.body ?? validBody;
  const target = await resolveTarget(deps, route.target, request.organizationId, request.pathParameters);
  await checkOwnedIds(deps, route, target, request);

  const graphRequest: GraphRequest = {
    method: route.upstream.method,
    path: fillPath(route.upstream.path.split('?')[0]!, request.pathParameters),
    query,
    accessToken: target.accessToken,
    ...(body === undefined ? {} : { json: body }),
  };
  const messageType = typeof body?.type === 'string' ? body.type : undefined;
  // Media ids are scoped by Meta through phone_number_id; we cannot tell whose they are ourselves.
  const mediaId = route.upstream.path.startsWith('/{mediaId}') ? request.pathParameters.mediaId : undefined;
  const call = () =>
    callGraph(
      deps,
      {
        account: target.account,
        operation: route.operation,
        verifiedNode: mediaId === undefined,
        send: route.send && target.phoneNumber ? { phoneNumberId: target.phoneNumber.phoneNumberId, messageType } : undefined,
      },
      graphRequest,
    );
  let response: GraphResponse;
  try {
    response = mediaId === undefined ? await call() : await scopedByMeta(deps, target, 'media', mediaId, call);
  } catch (error) {
    const outcome = outcomeOfFailure(error);
    if (prepared && outcome) await recordUpstreamSends(deps, target, [sendOf(prepared, outcome)], route.operation);
    throw error;
  }
  // Replies, reactions and read receipts may name its message id later: it must pass as the organization's.
  if (prepared) await recordUpstreamSends(deps, target, [sendOf(prepared, 'SENT', sentMessageIds(response.body)[0])], route.operation);
  if (route.method === 'DELETE') {
    // A deleted template, flow or QR code must not pass the next ownership check from the cache.
    deps.ownedIds.forget(target.account.organizationId, target.account.wabaId);
    if (target.phoneNumber) deps.ownedIds.forget(target.account.organizationId, target.phoneNumber.phoneNumberId);
  }
  return { status: response.status, body: response.body };
}

function sendOf(prepared: PreparedSend, outcome: UpstreamSend['outcome'], messageId?: string): UpstreamSend {
  return {
    sendId: prepared.sendId,
    to: String(prepared.body.to ?? ''),
    outcome,
    ...(messageId ? { messageId } : {}),
    ...(prepared.customerCallbackData === undefined ? {} : { customerCallbackData: prepared.customerCallbackData }),
  };
}
