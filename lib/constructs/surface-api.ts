/**
 * One REST API per surface of the route manifest: its single stage, the resource tree built from
 * `basePath + route.path`, one method per route proxied to the route group's function, the
 * gateway responses in the surface's own error body, and stage logging/metrics/throttling.
 * Nothing here lists a route; everything comes from the manifest entries it is given.
 */
import { Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct, type IDependable } from 'constructs';
import {
  methodThrottleOf,
  requiresGatewayApiKey,
  resourcePath,
  routeKey,
  type AuthorizerResponseKind,
  type EndpointGroup,
  type GatewayResponse,
  type GatewayResponseKind,
  type RouteDefinition,
  type SurfaceDefinition,
  type SurfaceName,
} from '../../runtime-contract/route-manifest';
import { pascal } from '../naming';
import { authorizerResponseTypes, keyedMethodAuthorizer } from './keyed-method-authorizer';

/** Manifest gateway-response kinds → API Gateway response types. A missing `x-api-key` and an
 * unknown one both end in API Gateway's 403 "Forbidden", i.e. the INVALID_API_KEY response. */
export const gatewayResponseTypes: Record<GatewayResponseKind, apigateway.ResponseType> = {
  API_KEY: apigateway.ResponseType.INVALID_API_KEY,
  THROTTLED: apigateway.ResponseType.THROTTLED,
  QUOTA_EXCEEDED: apigateway.ResponseType.QUOTA_EXCEEDED,
  MISSING_AUTHENTICATION_TOKEN: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN,
  REQUEST_TOO_LARGE: apigateway.ResponseType.REQUEST_TOO_LARGE,
};

/**
 * Access log line: who called what and how it ended. No headers, no bodies, no query strings.
 * `errorType` is the gateway response type (INVALID_API_KEY, THROTTLED, ...) when API Gateway answered itself.
 */
export const accessLogFields = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTimeEpoch',
  method: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  latency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  responseLength: '$context.responseLength',
  apiKeyId: '$context.identity.apiKeyId',
  errorType: '$context.error.responseType',
} as const;

/** What the platform's alarms and dashboard read of a surface's front door, REST or HTTP API alike. */
export interface ApiMetrics {
  count(options?: cloudwatch.MetricOptions): cloudwatch.Metric;
  clientErrors(options?: cloudwatch.MetricOptions): cloudwatch.Metric;
  serverErrors(options?: cloudwatch.MetricOptions): cloudwatch.Metric;
  latency(options?: cloudwatch.MetricOptions): cloudwatch.Metric;
}

export interface FunctionTarget {
  /** Proxy integration, shared by every method that routes to the function. */
  integration: apigateway.Integration;
  handler: lambda.IFunction;
}

export interface SurfaceApiProps {
  surfaceName: SurfaceName;
  surface: SurfaceDefinition;
  /** The manifest routes of this surface. */
  routes: readonly RouteDefinition[];
  targetOf: (group: EndpointGroup) => FunctionTarget;
  restApiName: string;
  stageThrottle: { rateLimit: number; burstLimit: number };
  /** AUTHORIZER where the keyed methods' authorizer names the usage-plan key (`x-api-key` or a person's). */
  apiKeySource?: apigateway.ApiKeySourceType;
  /** The request-authorizer function, for a surface with keyed methods (each gets the one authorizer). */
  requestAuthorizer?: lambda.IFunction;
  /** What the stage must wait for, e.g. the account-level CloudWatch role that logging needs. */
  stageDependencies?: IDependable[];
}

export class SurfaceApi extends Construct {
  readonly api: apigateway.RestApi;
  readonly stageName: string;
  /** Methods by `routeKey(method, resourcePath)`, e.g. `GET /api/v2/broadcast/public/health`. */
  readonly methods = new Map<string, apigateway.Method>();
  readonly accessLogGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: SurfaceApiProps) {
    super(scope, id);
    const { surface, routes } = props;
    this.stageName = surface.stage;
    assertUniqueRoutes(props.surfaceName, routes);
    assertConsistentPathParameters(props.surfaceName, routes);

    this.accessLogGroup = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    this.api = this.createRestApi(props);
    // The stack outputs the surface URL with its basePath instead of RestApi's default `Endpoint` output.
    this.api.node.tryRemoveChild('Endpoint');

    // API Gateway creates this group on first use with unlimited retention; owning it sets the retention.
    const executionLogGroup = new logs.LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${surface.stage}`,
      retention: logs.RetentionDays.ONE_MONTH,
    });
    this.api.deploymentStage.node.addDependency(executionLogGroup, ...(props.stageDependencies ?? []));

    this.allowInvocations(props.surfaceName, this.addMethods(props));
    if (routes.length === 0) this.addNoRoutesPlaceholder(surface.gatewayResponses.MISSING_AUTHENTICATION_TOKEN);
    this.addGatewayResponses(surface);
  }

  private createRestApi(props: SurfaceApiProps): apigateway.RestApi {
    const { surface, routes } = props;
    // Binary request bodies (multipart uploads) reach the Lambda base64-encoded; binary answers
    // (`binaryResponse`, the media download) are decoded for clients sending Accept: application/octet-stream.
    const binaryTypes = [
      ...(routes.some((route) => route.body === 'multipart') ? ['multipart/form-data'] : []),
      ...(routes.some((route) => route.binaryResponse) ? ['application/octet-stream'] : []),
    ];
    return new apigateway.RestApi(this, 'Api', {
      restApiName: props.restApiName,
      description: surface.description,
      // Regional: clients are server-side integrations; a CloudFront distribution in front
      // (edge-optimized) adds latency and a second place to configure caching/WAF.
      endpointConfiguration: { types: [apigateway.EndpointType.REGIONAL] },
      apiKeySourceType: props.apiKeySource,
      binaryMediaTypes: binaryTypes.length > 0 ? binaryTypes : undefined,
      // The account-level CloudWatch role is a per-region singleton; the stack creates it once
      // instead of every RestApi creating (and fighting over) its own.
      cloudWatchRole: false,
      deploy: true,
      retainDeployments: false,
      deployOptions: {
        stageName: surface.stage,
        description: `${surface.description} (${surface.stage})`,
        metricsEnabled: true,
        // Execution logs at ERROR only and never request/response data.
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        tracingEnabled: true,
        throttlingRateLimit: props.stageThrottle.rateLimit,
        throttlingBurstLimit: props.stageThrottle.burstLimit,
        methodOptions: guardedMethodOptions(routes),
        accessLogDestination: new apigateway.LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat: apigateway.AccessLogFormat.custom(JSON.stringify(accessLogFields)),
      },
    });
  }

  /** One method per route, proxied to its group's function; returns the functions invoked. */
  private addMethods(props: SurfaceApiProps): Set<lambda.IFunction> {
    const invokedHandlers = new Set<lambda.IFunction>();
    const keyed = props.routes.some(requiresGatewayApiKey) && props.requestAuthorizer ? keyedMethodAuthorizer(this, props.requestAuthorizer) : undefined;
    for (const route of props.routes) {
      const target = props.targetOf(route.group);
      const path = resourcePath(route);
      const method = this.api.root.resourceForPath(path).addMethod(route.method, target.integration, {
        operationName: route.operation,
        apiKeyRequired: requiresGatewayApiKey(route),
        // Keyed methods: the authorizer names the usage key; the function still authenticates the caller.
        // Bearer tokens (organization, upstream, v1) are verified by the group's function.
        ...(keyed && requiresGatewayApiKey(route)
          ? { authorizer: keyed, authorizationType: apigateway.AuthorizationType.CUSTOM }
          : { authorizationType: apigateway.AuthorizationType.NONE }),
      });
      this.methods.set(routeKey(route.method, path), method);
      invokedHandlers.add(target.handler);
    }
    return invokedHandlers;
  }

  /**
   * One invoke permission per (function, API), limited to this API's stage. Per-method
   * statements would scale the function's resource policy (20 KB cap) with the route count.
   */
  private allowInvocations(surfaceName: SurfaceName, invokedHandlers: ReadonlySet<lambda.IFunction>): void {
    for (const handler of invokedHandlers) {
      handler.addPermission(`Invoke${pascal(surfaceName, { foldCase: true })}Api`, {
        principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        action: 'lambda:InvokeFunction',
        sourceArn: this.api.arnForExecuteApi('*', '/*', this.stageName),
        sourceAccount: Stack.of(this).account,
      });
    }
  }

  /** The surface's gateway responses (its authorizer's too), in its own error body. */
  private addGatewayResponses(surface: SurfaceDefinition): void {
    const entries = [
      ...(Object.entries(surface.gatewayResponses) as Array<[GatewayResponseKind, GatewayResponse]>).map(([kind, response]) => ({
        kind,
        type: gatewayResponseTypes[kind],
        response,
      })),
      ...(Object.entries(surface.authorizerResponses ?? {}) as Array<[AuthorizerResponseKind, GatewayResponse]>).flatMap(([kind, response]) =>
        authorizerResponseTypes[kind].map((type) => ({ kind: type.responseType, type, response })),
      ),
    ];
    for (const { kind, type, response } of entries) {
      this.api.addGatewayResponse(`GatewayResponse${pascal(kind, { foldCase: true })}`, {
        type,
        statusCode: String(response.statusCode),
        templates: { 'application/json': response.body },
        // Static header values are single-quoted in API Gateway's mapping syntax.
        responseHeaders: response.headers ? Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, `'${value}'`])) : undefined,
      });
    }
  }

  /** Public URL of the surface: stage plus basePath. */
  urlOf(basePath: string): string {
    return basePath ? this.api.urlForPath(basePath) : this.api.url;
  }

  /** The stage's metrics, for the platform's alarms and dashboard. */
  metrics(): ApiMetrics {
    const stage = this.api.deploymentStage;
    return {
      count: (options) => stage.metricCount(options),
      clientErrors: (options) => stage.metricClientError(options),
      serverErrors: (options) => stage.metricServerError(options),
      latency: (options) => stage.metricLatency(options),
    };
  }

  /**
   * A REST API without methods cannot be deployed ("The REST API doesn't contain any methods").
   * Until the manifest gives this surface routes, `ANY /` answers the surface's own 404 body
   * from a MOCK integration so the stage, its URL and its usage plans exist. It disappears
   * as soon as the surface has a route.
   */
  private addNoRoutesPlaceholder(notFound: SurfaceDefinition['gatewayResponses']['MISSING_AUTHENTICATION_TOKEN']): void {
    const statusCode = String(notFound.statusCode);
    this.api.root.addMethod(
      'ANY',
      new apigateway.MockIntegration({
        // The only integration response has no selection pattern, so it answers whatever the request was.
        passthroughBehavior: apigateway.PassthroughBehavior.WHEN_NO_MATCH,
        requestTemplates: { 'application/json': JSON.stringify({ statusCode: notFound.statusCode }) },
        integrationResponses: [{ statusCode, responseTemplates: { 'application/json': notFound.body } }],
      }),
      { operationName: 'noRoutesYet', methodResponses: [{ statusCode }] },
    );
  }
}

/**
 * The stage's method-level settings of the guarded routes (runtime-contract/route-guards.ts): their
 * own throttle instead of the stage's per-method default. Logging and metrics repeat the stage's,
 * so a method with its own entry is logged and measured like every other.
 * Keys are `{resource path}/{METHOD}`, which CDK turns into API Gateway's `~1`-escaped paths.
 */
export function guardedMethodOptions(routes: readonly RouteDefinition[]): Record<string, apigateway.MethodDeploymentOptions> {
  const options: Record<string, apigateway.MethodDeploymentOptions> = {};
  for (const route of routes) {
    const throttle = methodThrottleOf(route);
    if (!throttle) continue;
    // The root resource is `//GET`: CDK reads the part before the method as the resource path.
    options[`${resourcePath(route)}/${route.method}`] = {
      metricsEnabled: true,
      loggingLevel: apigateway.MethodLoggingLevel.ERROR,
      dataTraceEnabled: false,
      throttlingRateLimit: throttle.rateLimit,
      throttlingBurstLimit: throttle.burstLimit,
    };
  }
  return options;
}

function assertUniqueRoutes(surfaceName: SurfaceName, routes: readonly RouteDefinition[]): void {
  const seen = new Set<string>();
  for (const route of routes) {
    const key = routeKey(route.method, resourcePath(route));
    if (seen.has(key)) throw new Error(`Route manifest: ${key} is declared twice on the ${surfaceName} surface`);
    seen.add(key);
  }
}

/** API Gateway rejects two different path parameters under the same parent (`/a/{id}` and `/a/{key}`). */
function assertConsistentPathParameters(surfaceName: SurfaceName, routes: readonly RouteDefinition[]): void {
  const parameterAt = new Map<string, string>();
  for (const route of routes) {
    const segments = resourcePath(route).split('/').filter(Boolean);
    segments.forEach((segment, index) => {
      if (!/^\{.+\}$/.test(segment)) return;
      const parent = `/${segments.slice(0, index).join('/')}`;
      const existing = parameterAt.get(parent);
      if (existing !== undefined && existing !== segment) {
        throw new Error(`Route manifest: ${surfaceName} has both ${existing} and ${segment} under ${parent}; API Gateway allows one path parameter per level`);
      }
      parameterAt.set(parent, segment);
    });
  }
}
