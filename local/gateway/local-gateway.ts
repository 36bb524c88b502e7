/**
 * A local stand-in for API Gateway REST (v1) APIs with Lambda proxy integration.
 *
 * Serves every route of the manifest at `/{stage}{basePath}{path}` and invokes the group's
 * Lambda handler module in-process with the event and context Lambda would give it. The
 * answers API Gateway gives before any Lambda runs (unknown route, missing or disabled API
 * key, usage-plan throttling, body too large) come from the surface's gateway responses, so
 * clients see the same status codes and bodies locally as in AWS.
 *
 * Generic: it knows routes, surfaces and function sizing, nothing of the business. The parts:
 * route-table.ts (routing), usage-plan.ts (API keys, token buckets), request-body.ts (the body
 * cap), proxy-event.ts and proxy-result.ts (the Lambda proxy contract), lambda-invoker.ts
 * (handler loading, timeouts), request-authorizer.ts (the keyed methods' Lambda authorizer),
 * gateway-responses.ts, request-handler.ts (one request in order).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { publicPath, type EndpointGroup, type RouteDefinition } from '../../runtime-contract/route-manifest';
import { functions, requestAuthorizer } from '../../runtime-contract/resource-definitions';
import { INTERNAL_ERROR, sendJson } from './gateway-responses';
import { LambdaInvoker, type ProxyHandler } from './lambda-invoker';
import { handleRequest, type GatewayState } from './request-handler';
import { compileRouteTable, type RouteGatewaySettings } from './route-table';
import { UsagePlanGate } from './usage-plan';
import { LocalRequestAuthorizer, type AuthorizerHandler } from './request-authorizer';

import { localIndexOf } from './local-index';
export type { ProxyHandler } from './lambda-invoker';
export type { RouteGatewaySettings } from './route-table';

export interface LocalGatewayOptions {
  port: number; // 0 = random
  host?: string; // default 127.0.0.1
  routes: readonly RouteDefinition[];
  /** Loads the Lambda handler of a group (the runtime passes a dynamic import of functions/<group>/<group>.lambda.ts). Called once per group, cached. */
  loadHandler: (group: EndpointGroup) => Promise<ProxyHandler>;
  /** API Gateway's key store: is this x-api-key value an enabled key in the usage plan of the surface? */
  isApiKeyEnabled: (apiKey: string) => Promise<boolean>;
  /**
   * The `request-authorizer` function's handler, asked for keyed methods called without `x-api-key`
   * (a person's Bearer token; docs/PEOPLE.md "On AWS"). Absent: such a request is refused as a missing key.
   */
  loadRequestAuthorizer?: () => Promise<AuthorizerHandler>;
  /** Optional hook to observe invocations (for logs/benchmarks). */
  onInvocation?: (info: { group: string; operation: string; statusCode: number; durationMs: number }) => void;
  /** Clock (epoch ms) for the usage-plan token buckets and `requestTimeEpoch`. Default `Date.now`. */
  now?: () => number;
  /**
   * Function timeout of a group in ms. Default: `functions[group].timeoutSeconds` from the resource
   * definitions. Lets tests use short timeouts.
   */
  functionTimeoutMs?: (group: EndpointGroup) => number;
  /** API Gateway's integration timeout in ms. Default 29,000 (the REST API default and maximum). */
  integrationTimeoutMs?: number;
  /**
   * A route's gateway settings when they come from elsewhere than the manifest: the deployed-run
   * harness reads the key requirement, usage-plan throttle and function from a synthesized template.
   */
  routeSettings?: (route: RouteDefinition) => Partial<RouteGatewaySettings>;
  /** Links `GET /` lists beside the surfaces and docs (the sandbox, …); absent, `GET /` is API Gateway's 404. */
  indexLinks?: () => Record<string, string>;
}

export interface LocalGateway {
  url: string;
  port: number;
  close(): Promise<void>;
}

const DEFAULT_INTEGRATION_TIMEOUT_MS = 29_000;

/**
 * Starts the gateway; resolves once it listens.
 *
 * @example
 * const gateway = await startLocalGateway({ port: 0, routes, loadHandler, isApiKeyEnabled: async () => true });
 * await fetch(`${gateway.url}/prod/health`);
 * await gateway.close();
 */
export function startLocalGateway(options: LocalGatewayOptions): Promise<LocalGateway> {
  const state = gatewayStateOf(options);
  const server = http.createServer((req, res) => {
    handleRequest(state, req, res).catch(() => {
      // Never let a request take the gateway down; answer as API Gateway would for its own fault.
      if (!res.headersSent) sendJson(res, 500, INTERNAL_ERROR, randomUUID());
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  return listen(server, options.port, state.host);
}

function gatewayStateOf(options: LocalGatewayOptions): GatewayState {
  const now = options.now ?? Date.now;
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const functionTimeoutMs = options.functionTimeoutMs ?? ((group: EndpointGroup) => (functions[group]?.timeoutSeconds ?? 29) * 1000);
  const documentRoute = options.routes.find((route) => route.group === 'docs' && route.operation === 'openApiDocument');
  const consoleRoute = options.routes.find((route) => route.group === 'console' && route.operation === 'consolePage');
  return {
    stages: compileRouteTable({ routes: options.routes, functionTimeoutMs, routeSettings: options.routeSettings }),
    invoker: new LambdaInvoker(options.loadHandler, options.integrationTimeoutMs ?? DEFAULT_INTEGRATION_TIMEOUT_MS, region),
    usagePlan: new UsagePlanGate(options.isApiKeyEnabled, now, requestAuthorizerOf(options, region)),
    now,
    host: options.host ?? '127.0.0.1',
    documentPath: documentRoute ? publicPath(documentRoute) : undefined,
    consolePath: consoleRoute ? publicPath(consoleRoute) : undefined,
    onInvocation: options.onInvocation,
    ...(options.indexLinks ? { index: (origin: string) => localIndexOf(origin, options.routes, options.indexLinks!()) } : {}),
  };
}

function requestAuthorizerOf(options: LocalGatewayOptions, region: string): LocalRequestAuthorizer | undefined {
  if (!options.loadRequestAuthorizer) return undefined;
  const { timeoutSeconds, memoryMb } = functions[requestAuthorizer.functionName];
  return new LocalRequestAuthorizer({ loadHandler: options.loadRequestAuthorizer, region, timeoutMs: timeoutSeconds * 1000, memoryMb });
}

function listen(server: http.Server, port: number, host: string): Promise<LocalGateway> {
  return new Promise<LocalGateway>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      resolve({ url: `http://${urlHost}:${address.port}`, port: address.port, close: () => close(server) });
    });
  });
}

/** Stops accepting, closes idle connections, and forces the rest closed after a second. */
function close(server: http.Server): Promise<void> {
  return new Promise<void>((done, fail) => {
    const force = setTimeout(() => server.closeAllConnections(), 1_000);
    force.unref();
    server.close((error) => {
      clearTimeout(force);
      if (error) fail(error);
      else done();
    });
    server.closeIdleConnections();
  });
}
