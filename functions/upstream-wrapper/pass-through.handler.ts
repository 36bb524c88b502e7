import type { UpstreamRouteSpec } from '../../runtime-contract/upstream-routes';
import { httpOperation, type HttpOperation } from '../../shared/http/http-operation';
import { passThrough } from '../../shared/upstream/pass-through';
import type { UpstreamWrapperDependencies } from '../../shared/upstream/ports';

export type WrapperDependencies = { upstream: UpstreamWrapperDependencies };
export type WrapperOperation = HttpOperation<WrapperDependencies, 'upstream-access-token'>;

/** Every /upstream route authenticates with an upstream access token. */
export const wrapperOperation = (handle: WrapperOperation['handle']): WrapperOperation => httpOperation('upstream-access-token', handle);

/** The one operation behind every ordinary row of runtime-contract/upstream-routes.ts: Meta's status and body unchanged. */
export const passThroughOperation = (route: UpstreamRouteSpec): WrapperOperation =>
  wrapperOperation(async (request, { upstream }) => {
    const result = await passThrough(upstream, route, {
      organizationId: request.caller.organizationId,
      pathParameters: request.pathParameters,
      query: request.query,
      body: request.body,
    });
    return { statusCode: result.status, body: result.body ?? {} };
  });
