import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { resourcePath, surfaces, type RouteDefinition } from '../../runtime-contract/route-manifest';

/** A REST (v1) proxy event for a route, shaped as API Gateway sends it. */
export function proxyEventFor(
  route: RouteDefinition,
  overrides: {
    headers?: Record<string, string>;
    body?: string | null;
    query?: Record<string, string>;
    pathParameters?: Record<string, string>;
    sourceIp?: string;
  } = {},
): APIGatewayProxyEvent {
  const path = resourcePath(route).replace(/\{(\w+)\}/g, (_, name: string) => overrides.pathParameters?.[name] ?? name);
  const requestId = `req-${Math.random().toString(36).slice(2)}`;
  return {
    resource: resourcePath(route),
    path,
    httpMethod: route.method,
    headers: overrides.headers ?? {},
    multiValueHeaders: {},
    queryStringParameters: overrides.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: overrides.pathParameters ?? null,
    stageVariables: null,
    body: overrides.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: route.method,
      identity: { sourceIp: overrides.sourceIp ?? '127.0.0.1' } as APIGatewayProxyEvent['requestContext']['identity'],
      path: `/${surfaces[route.surface].stage}${path}`,
      stage: surfaces[route.surface].stage,
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'test',
      resourcePath: resourcePath(route),
    },
  };
}

export const lambdaContext = (): Context =>
  ({
    awsRequestId: `aws-${Math.random().toString(36).slice(2)}`,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:test',
    memoryLimitInMB: '256',
    logGroupName: 'test',
    logStreamName: 'test',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }) as Context;
