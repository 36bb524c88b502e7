/**
 * Routes as a group's Lambda serves them: each row with the resource path API Gateway hands the
 * Lambda (`event.resource`). The CDK app writes a group's list into its bundle at synth
 * (lib/constructs/group-routes-define.ts), so a bundle carries its own rows and not this manifest;
 * unbundled (the local runtime, tests) shared/http/group-routes.ts reads them here.
 */
import { resourcePath, serviceRoutesOf, type EndpointGroup, type RouteDefinition } from './route-manifest';

export interface ServedRoute {
  readonly route: RouteDefinition;
  readonly resource: string;
}

/**
 * `routes` with their resource paths.
 *
 * @example
 * servedRoutes(serviceRoutesOf('broadcast-status'))[0]; // { route: { method: 'GET', … }, resource: '/broadcast/public/status/{jobId}' }
 */
export const servedRoutes = (routes: readonly RouteDefinition[]): ServedRoute[] => routes.map((route) => ({ route, resource: resourcePath(route) }));

/**
 * A group's manifest routes as it serves them; none for the /upstream wrapper, which passes its own.
 *
 * @example
 * servedRoutesOfGroup('v1-inbox').length; // its routes' count
 */
export const servedRoutesOfGroup = (group: EndpointGroup): ServedRoute[] => (group === 'upstream-wrapper' ? [] : servedRoutes(serviceRoutesOf(group)));
