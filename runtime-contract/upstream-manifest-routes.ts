/**
 * The /upstream routes of the manifest, one per row of `upstream-routes.ts`. Only the wrapper's
 * Lambda and `all-routes.ts` import this module, so no other function bundles the route table.
 */
import type { RouteDefinition } from './route-manifest';
import { upstreamRoutes, type UpstreamRouteSpec } from './upstream-routes';

/** A row of the /upstream route table as a manifest route. */
function upstreamManifestRoute(route: UpstreamRouteSpec): RouteDefinition {
  return {
    surface: 'upstream',
    method: route.method,
    path: `/upstream${route.path}`,
    group: 'upstream-wrapper',
    operation: route.operation,
    auth: 'upstream-access-token',
    rateLimit: 'upstream',
    body: route.body,
    ...(route.binaryResponse ? { binaryResponse: true } : {}),
  };
}

export const upstreamManifestRoutes: readonly RouteDefinition[] = upstreamRoutes.map(upstreamManifestRoute);
