import type { RouteDefinition } from '../../../runtime-contract/route-manifest';
import { routeKey } from '../../../runtime-contract/route-keys';
import { UnroutableRequestError } from '../errors';
import type { HttpPipelineDependencies, HttpRequest } from '../http-operation';
import { logger } from '../../observability/logger';
import type { PipelineMiddleware } from './pipeline-request';

/**
 * Finds the manifest route of the event (the group's route table), resolves the group's
 * dependencies and builds the request the operation will see (no body or caller yet).
 */
export const routeFromManifest = (
  routeTable: ReadonlyMap<string, RouteDefinition>,
  dependencies: (() => HttpPipelineDependencies) | undefined,
): PipelineMiddleware => ({
  before: (request) => {
    const event = request.event;
    request.internal.startedAt = Date.now();
    const route = routeTable.get(routeKey(event.httpMethod, event.resource));
    if (!route) throw new UnroutableRequestError(`${event.httpMethod} ${event.resource}`);
    request.internal.route = route;
    // Resolved per request (not per module load) so a re-configured process gets fresh services.
    const resolved = dependencies?.();
    request.internal.dependencies = resolved;
    const httpRequest: HttpRequest = {
      route,
      requestId: event.requestContext?.requestId ?? request.context.awsRequestId,
      receivedAt: resolved?.clock.now() ?? new Date(),
      path: event.requestContext?.path ?? event.path,
      method: event.httpMethod,
      headers: event.headers as Record<string, string>,
      query: { ...(event.queryStringParameters as Record<string, string> | null) },
      pathParameters: { ...(event.pathParameters as Record<string, string> | null) },
      body: undefined,
      sourceIp: event.requestContext?.identity?.sourceIp ?? 'unknown',
      caller: undefined,
    };
    request.internal.request = httpRequest;
    logger.appendKeys({ requestId: httpRequest.requestId, operation: route.operation });
  },
});
