/**
 * The one HTTP pipeline every endpoint group's Lambda uses: small middy middlewares in a fixed
 * order (shared/http/middlewares/), then the route's operation.
 *
 *   logger context → security headers → audit record → error answers → header normalization
 *   → route (manifest) → authentication starts → body size cap → JSON body (+ nesting limit)
 *   → caller required → rate limit → operation
 *
 * The audit record runs on the way out, after the error table decided the answer (middy runs
 * `after` and `onError` in reverse order).
 *
 * An endpoint group is one Lambda serving several routes of the manifest; the router dispatches
 * on the manifest's `operation`, so the Lambda and the API definition agree.
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { EndpointGroup, RouteDefinition } from '../../runtime-contract/route-manifest';
import { rateLimitClasses } from '../../runtime-contract/rate-limit-classes';
import { routeKey } from '../../runtime-contract/route-keys';
import { groupRoutes } from './group-routes';
import type { AnyHttpOperation, HttpPipelineDependencies, HttpRequest, HttpResult } from './http-operation';
import { logger } from '../observability/logger';
import { startAuthentication, requireCaller } from './middlewares/authenticate.middleware';
import { capBodySize, parseJsonBody } from './middlewares/body.middleware';
import { errorResponses, jsonResponse } from './middlewares/error-response.middleware';
import { normalizeHeaders } from './middlewares/normalize-headers.middleware';
import type { PipelineContext, PipelineMiddleware, PipelineState } from './middlewares/pipeline-request';
import { rateLimit } from './middlewares/rate-limit.middleware';
import { routeFromManifest } from './middlewares/route.middleware';
import { addSecurityHeaders } from './middlewares/security-headers.middleware';
import { isAuditedRoute, recordAudit } from './middlewares/audit.middleware';

export { MAX_JSON_BODY_BYTES } from './middlewares/body.middleware';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface GroupHandlerBase<Dependencies> {
  operations: Record<string, AnyHttpOperation<Dependencies>>;
  /** Built lazily on the first request that needs it; omit for groups with no authenticated route. */
  dependencies?: () => Dependencies & HttpPipelineDependencies;
}

/**
 * The group's routes: the manifest's by default (tests pass their own). The wrapper passes its
 * /upstream routes itself, so no other group's bundle carries the upstream route table. A bundle
 * of any other group serves the rows written in at synth (group-routes.ts).
 */
export type GroupHandlerOptions<Dependencies> = GroupHandlerBase<Dependencies> &
  (
    | { group: Exclude<EndpointGroup, 'upstream-wrapper'>; routes?: readonly RouteDefinition[] }
    | { group: 'upstream-wrapper'; routes: readonly RouteDefinition[] }
  );

export function createGroupHandler<Dependencies>(options: GroupHandlerOptions<Dependencies>): ProxyHandler {
  const routeTable = new Map<string, RouteDefinition>();
  const served = groupRoutes(options.group, options.routes);
  if (served.length === 0) throw new Error(`Group ${options.group} has no routes`);
  for (const { route, resource } of served) {
    const operation = options.operations[route.operation];
    if (!operation) throw new Error(`Group ${options.group} has no operation ${route.operation} for ${route.method} ${route.path}`);
    // The operation's caller type comes from its declared auth kind: it must be the route's.
    if (operation.auth !== route.auth) {
      throw new Error(`Operation ${route.operation} is written for auth ${operation.auth}, but ${route.method} ${route.path} uses ${route.auth}`);
    }
    if ((route.auth !== 'none' || rateLimitClasses[route.rateLimit].perMinute > 0) && !options.dependencies) {
      throw new Error(`Group ${options.group} needs dependencies for ${route.operation}`);
    }
    routeTable.set(routeKey(route.method, resource), route);
  }
  requireAuditLog(
    options.group,
    served.map(({ route }) => route),
    options.dependencies,
  );

  const pipeline = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, PipelineContext, PipelineState>()
    .use(injectLambdaContext(logger, { resetKeys: true }) as unknown as PipelineMiddleware)
    .use(addSecurityHeaders())
    .use(recordAudit())
    .use(errorResponses())
    .use(normalizeHeaders())
    .use(routeFromManifest(routeTable, options.dependencies))
    .use(startAuthentication())
    .use(capBodySize())
    .use(parseJsonBody())
    .use(requireCaller())
    .use(rateLimit())
    .use({
      // middy hands a handler only event and context; the finished request goes through the context.
      before: (request) => {
        request.context.httpPipeline = { request: request.internal.request!, dependencies: request.internal.dependencies };
      },
    })
    .handler(async (_event, context) => {
      const { request, dependencies } = context.httpPipeline!;
      const operation = options.operations[request.route.operation]!;
      // The group checked at build time that the route's auth kind is the operation's, and the
      // caller step set the caller of that kind: the request has the type the operation declares.
      const handle = operation.handle as (request: HttpRequest, dependencies: Dependencies) => Promise<HttpResult>;
      const result = await handle(request, dependencies as Dependencies);
      return jsonResponse(request.requestId, result);
    });

  return (event, context) => pipeline(event, context);
}

/**
 * A group with an audited route (audit.middleware.ts) must be given an audit log: checked at build
 * on its composition (ports are built lazily, so naming the port builds nothing).
 */
function requireAuditLog(group: string, routes: readonly RouteDefinition[], dependencies: (() => HttpPipelineDependencies) | undefined): void {
  const audited = routes.find(isAuditedRoute);
  if (!audited || !dependencies) return;
  if (!('auditLog' in dependencies())) throw new Error(`Group ${group} needs an auditLog for ${audited.method} ${audited.path} (${audited.operation})`);
}
