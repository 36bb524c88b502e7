/**
 * A route group's routes written into its bundle at synth (esbuild `define`), so the bundle does
 * not load the route manifest (shared/http/group-routes.ts). The rows come from the manifest itself
 * (runtime-contract/served-routes.ts), so the bundle and the API Gateway methods of the same synth
 * cannot differ.
 */
import { servedRoutesOfGroup } from '../../runtime-contract/served-routes';
import type { FunctionName } from '../../runtime-contract/resource-definitions';
import { serviceRoutes, type EndpointGroup } from '../../runtime-contract/route-manifest';

export const GROUP_ROUTES = '__GROUP_ROUTES__';

/**
 * The define of `name`'s bundle: its served routes as a JSON string literal when it is a route group
 * of the manifest; `false` otherwise (the queue workers, and the /upstream wrapper, which passes
 * the rows of its own table).
 *
 * @example
 * groupRoutesDefine('v1-inbox'); // { __GROUP_ROUTES__: '"[{\\"route\\":…}]"' }
 * groupRoutesDefine('chunk-worker'); // { __GROUP_ROUTES__: 'false' }
 */
export function groupRoutesDefine(name: FunctionName): Record<string, string> {
  const isGroup = name !== 'upstream-wrapper' && serviceRoutes.some((route) => route.group === name);
  return { [GROUP_ROUTES]: isGroup ? JSON.stringify(JSON.stringify(servedRoutesOfGroup(name as EndpointGroup))) : 'false' };
}
