/**
 * The routes a group's Lambda serves. In a bundle they were written in at synth
 * (lib/constructs/group-routes-define.ts) from the manifest, so the bundle does not load
 * runtime-contract/route-manifest.ts (~14 KiB of every other group's rows and the surfaces' gateway
 * answers); unbundled they are read from the manifest, or are the ones given (the /upstream
 * wrapper's, tests').
 */
import type { EndpointGroup, RouteDefinition } from '../../runtime-contract/route-manifest';
import type { ServedRoute } from '../../runtime-contract/served-routes';

/** Replaced by esbuild's `define` in bundles: the group's served routes as JSON text, or false; undefined unbundled. */
declare const __GROUP_ROUTES__: string | false | undefined;

type ServedRoutesModule = typeof import('../../runtime-contract/served-routes');

/**
 * The group's routes with their resource paths: `given` (the wrapper's, tests'), or the manifest's.
 *
 * @example
 * groupRoutes('v1-inbox'); // [{ route: { method: 'GET', path: '/contacts', … }, resource: '/contacts' }, …]
 */
export function groupRoutes(group: EndpointGroup, given?: readonly RouteDefinition[]): readonly ServedRoute[] {
  // The test is the side packages' (lib/constructs/side-packages.ts): esbuild folds it where the
  // define is a string, and `manifestRoutes`, no longer called, leaves the bundle with the manifest.
  return typeof __GROUP_ROUTES__ === 'string' ? writtenRoutes(group, __GROUP_ROUTES__, given) : manifestRoutes(group, given);
}

function writtenRoutes(group: EndpointGroup, written: string, given: readonly RouteDefinition[] | undefined): readonly ServedRoute[] {
  if (given !== undefined) throw new Error(`Group ${group}: a bundle serves the routes written in at synth, not given ones`);
  return JSON.parse(written) as ServedRoute[];
}

function manifestRoutes(group: EndpointGroup, given: readonly RouteDefinition[] | undefined): readonly ServedRoute[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const manifest = require('../../runtime-contract/served-routes') as ServedRoutesModule;
  return given === undefined ? manifest.servedRoutesOfGroup(group) : manifest.servedRoutes(given);
}
