import { publicPath, serviceRoutes } from '../../runtime-contract/route-manifest';
import { httpOperation, type HttpOperation } from '../../shared/http/http-operation';

export interface HealthSettings {
  serviceName: string;
  version: string;
  now: () => Date;
}

const broadcastRoutes = serviceRoutes.filter((route) => route.surface === 'broadcast');
const lastNamedSegment = (path: string) =>
  path
    .split('/')
    .filter((segment) => segment && !segment.startsWith('{'))
    .pop();
const routeNamesInUse = broadcastRoutes.map((route) => lastNamedSegment(route.path));

/**
 * Route inventory of the broadcast API, from the manifest: informative, not a supported reference.
 * Keyed by method and path (`"DELETE /webhooks/{webhookId}"`), so no two routes share an entry. The
 * earlier inventory's short names (`"send-bulk-standard"`) stay for the routes they name alone;
 * a name several routes share (`webhooks`) is left out rather than naming one of them.
 */
export const endpointInventory = Object.fromEntries(
  broadcastRoutes.flatMap((route) => {
    const entry = `${route.method} ${publicPath(route)}`;
    const name = lastNamedSegment(route.path);
    const unique = name !== undefined && routeNamesInUse.filter((used) => used === name).length === 1;
    return [[`${route.method} ${route.path}`, entry] as const, ...(unique ? [[name, entry] as const] : [])];
  }),
);

/** Answers without touching any store: availability of the service itself, no key, no number, no template. */
export const health = (settings: HealthSettings): HttpOperation<unknown, 'none'> =>
  httpOperation('none', async () => ({
    statusCode: 200,
    body: {
      status: 'ok',
      timestamp: settings.now().toISOString(),
      service: settings.serviceName,
      version: settings.version,
      endpoints: endpointInventory,
    },
  }));
