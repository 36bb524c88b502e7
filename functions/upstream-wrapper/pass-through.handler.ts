import type { UpstreamRouteSpec } from '../../runtime-contract/upstream-routes';
import { callerOf, type HttpOperation } from '../../shared/http/http-operation';
import { passThrough } from '../../shared/upstream/pass-through';
import type { UpstreamWrapperDependencies } from '../../shared/upstream/ports';

export type WrapperOperation = HttpOperation<{ upstream: UpstreamWrapperDependencies }>;

/** The one operation behind every ordinary row of runtime-contract/upstream-routes.ts: Meta's status and body unchanged. */
export const passThroughOperation =
  (route: UpstreamRouteSpec): WrapperOperation =>
  async (request, { upstream }) => {
    const result = await passThrough(upstream, route, {
      organizationId: callerOf(request).organizationId,
      pathParameters: request.pathParameters,
      query: request.query,
      body: request.body,
    });
    return { statusCode: result.status, body: result.body ?? {} };
  };
