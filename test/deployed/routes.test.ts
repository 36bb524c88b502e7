/**
 * The REST and HTTP APIs of the synthesized assembly serve exactly the route manifest: every route
 * at its stage and path, behind its surface's front door, on the function of its group, with the
 * API key requirement it declares and, for a guarded route, its method throttle (a REST stage's
 * method setting or an HTTP API's route throttle, which the deployed run's gateway enforces).
 */
import { routes } from '../../runtime-contract/all-routes';
import { methodThrottleOf, requiresGatewayApiKey, resourcePath, surfaces } from '../../runtime-contract/route-manifest';
import { assemblyDirectory } from './harness/assembly-location';
import { IntrinsicResolver, readCloudAssembly } from './harness/cloud-assembly';
import { deployedFunctions, deployedRoutes } from './harness/deployed-model';
import { plannedLocalResources } from './harness/local-names';

it('every manifest route is a method of the template on its group function, and nothing else is', () => {
  const assembly = readCloudAssembly(assemblyDirectory);
  const resolver = new IntrinsicResolver(assembly, plannedLocalResources(assembly));
  const functionNameOf = new Map(deployedFunctions(assembly, resolver).map((fn) => [fn.physicalName, fn.name]));
  const deployed = deployedRoutes(assembly, resolver)
    .map(
      (route) =>
        `${route.frontDoor} ${route.method} /${route.stageName}${route.resourcePath} -> ${functionNameOf.get(route.functionName)}${route.apiKeyRequired ? ' (api key)' : ''}`,
    )
    .sort();
  const manifest = routes
    .map(
      (route) =>
        `${surfaces[route.surface].frontDoor} ${route.method} /${surfaces[route.surface].stage}${resourcePath(route)} -> ${route.group}${requiresGatewayApiKey(route) ? ' (api key)' : ''}`,
    )
    .sort();
  expect(deployed).toEqual(manifest);
});

it("every guarded route's method throttle is on its stage in the template, and the deployed gateway runs it", () => {
  const assembly = readCloudAssembly(assemblyDirectory);
  const resolver = new IntrinsicResolver(assembly, plannedLocalResources(assembly));
  const deployed = deployedRoutes(assembly, resolver)
    .filter((route) => route.methodThrottle)
    .map((route) => `${route.method} /${route.stageName}${route.resourcePath} ${JSON.stringify(route.methodThrottle)}`)
    .sort();
  const manifest = routes
    .filter((route) => methodThrottleOf(route))
    .map((route) => `${route.method} /${surfaces[route.surface].stage}${resourcePath(route)} ${JSON.stringify(methodThrottleOf(route))}`)
    .sort();
  expect(deployed).toEqual(manifest);
});

it("Meta's webhook and its handshake are served by an HTTP API, by no REST API", () => {
  const assembly = readCloudAssembly(assemblyDirectory);
  const resolver = new IntrinsicResolver(assembly, plannedLocalResources(assembly));
  const hooks = deployedRoutes(assembly, resolver).filter((route) => route.resourcePath === '/meta/whatsapp');
  expect(hooks.map((route) => `${route.frontDoor} ${route.method} /${route.stageName}${route.resourcePath}`).sort()).toEqual([
    'http-api GET /hooks/meta/whatsapp',
    'http-api POST /hooks/meta/whatsapp',
  ]);
});
