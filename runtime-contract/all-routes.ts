/**
 * The single source of truth for every HTTP route of the service: the manifest's routes followed
 * by the /upstream ones built from the upstream route table. The CDK app, the local gateway and
 * the tests read the complete list here; a Lambda imports only the part it serves.
 */
import { serviceRoutes, type EndpointGroup, type RouteDefinition } from './route-manifest';
import { upstreamManifestRoutes } from './upstream-manifest-routes';

export const routes: readonly RouteDefinition[] = [...serviceRoutes, ...upstreamManifestRoutes];

export const routesOf = (group: EndpointGroup): RouteDefinition[] => routes.filter((route) => route.group === group);
