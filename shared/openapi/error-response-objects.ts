/**
 * The error answers of the OpenAPI document: one shared Response Object per surface and status,
 * from the one error table (`shared/http/error-responses.ts`), the gateway's and the authorizer's
 * answers, each with an example in the surface's own error body; and an operation's references to them.
 */
import { surfaces, type RouteDefinition, type SurfaceName } from '../../runtime-contract/route-manifest';
import { errorAnswers, genericServerError } from '../http/error-responses';
import { errorBody } from '../http/surface-responses';

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
export function surfaceErrorResponses(surface: SurfaceName): Record<string, Record<string, unknown>> {
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

export const errorResponseRefsOf = (route: RouteDefinition): Record<string, Record<string, unknown>> =>
  Object.fromEntries(
    [...errorStatuses(route.surface).keys(), 504]
      .sort((a, b) => a - b)
      .map((status) => [String(status), { $ref: `#/components/responses/${route.surface}${status}` }]),
  );
