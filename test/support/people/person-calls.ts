/**
 * A person's request handed to its function's handler as API Gateway hands it on after the gateway's
 * own check (the request authorizer lets a member's token through: tested with the gateway in
 * test/integration/people/gateway-person-token.test.ts). The people suites use it to assert the
 * function's own answers (roles, removal, tokens) without the authorizer in front.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { publicPath, serviceRoutes, type RouteDefinition } from '../../../runtime-contract/route-manifest';
import { lambdaContext, proxyEventFor } from '../api-gateway-event';
import type { TestRuntime } from '../local-runtime';

/** The broadcast route a public path names, with its path parameters. */
export function broadcastRouteOf(method: string, fullPath: string): { route: RouteDefinition; pathParameters: Record<string, string> } {
  for (const route of serviceRoutes) {
    if (route.method !== method || route.surface !== 'broadcast') continue;
    const names: string[] = [];
    const pattern = new RegExp(`^${publicPath(route).replace(/\{(\w+)\}/g, (_all, name: string) => (names.push(name), '([^/]+)'))}$`);
    const match = pattern.exec(fullPath);
    if (match) return { route, pathParameters: Object.fromEntries(names.map((name, index) => [name, match[index + 1]!])) };
  }
  throw new Error(`no route ${method} ${fullPath}`);
}

/** Calls the route's function with the person's token (and nothing else); `fullPath` is the public path, stage included. */
export async function callAsPerson(
  runtime: TestRuntime,
  token: string,
  method: string,
  fullPath: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const { route, pathParameters } = broadcastRouteOf(method, fullPath);
  const handler = await runtime.functionHandler(route.group);
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const event = proxyEventFor(route, { headers, pathParameters, body: body === undefined ? null : JSON.stringify(body) });
  const result = (await handler(event, lambdaContext())) as APIGatewayProxyResult;
  return { status: result.statusCode, body: JSON.parse(result.body) };
}
