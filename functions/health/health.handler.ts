import { publicPath, serviceRoutes } from '../../runtime-contract/route-manifest';
import { httpOperation, type HttpOperation } from '../../shared/http/http-operation';

export interface HealthSettings {
  serviceName: string;
  version: string;
  now: () => Date;
}

/** Route inventory of the broadcast API, from the manifest: informative, not a supported reference. */
const endpointInventory = Object.fromEntries(
  serviceRoutes
    .filter((route) => route.surface === 'broadcast')
    .map((route) => [route.path.split('/').filter((segment) => segment && !segment.startsWith('{')).pop(), `${route.method} ${publicPath(route)}`]),
);

/** Answers without touching any store: availability of the service itself, no key, no number, no template. */
export const health =
  (settings: HealthSettings): HttpOperation<unknown, 'none'> =>
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
