/**
 * One HTTP API per surface whose front door is `http-api` (runtime-contract/http-types.ts
 * `FrontDoorKind`; today Meta's webhooks): its one named stage (so the URL keeps the stage as its
 * first path segment, like a REST surface's), one route per manifest route proxied to the group's
 * function with payload format 1.0 (the REST-style proxy event every handler reads), each guarded
 * route's method throttle as its route throttle, and access logs in the REST surfaces' fields.
 *
 * What an HTTP API does not have, and what stands for it (docs/OPERATIONS.md "Front doors"): no
 * WAF (the route throttles bound a flood for every caller together, and the function refuses a
 * source after repeated refusals, or outside the configured ranges, before checking Meta's signature), no usage plans or API keys (the surface has no keyed route:
 * checked here), no gateway responses (its fixed refusals are the surface's `gatewayResponses`).
 */
import * as apigatewayv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  methodThrottleOf,
  requiresGatewayApiKey,
  resourcePath,
  routeKey,
  type EndpointGroup,
  type RouteDefinition,
  type SurfaceDefinition,
  type SurfaceName,
} from '../../runtime-contract/route-manifest';
import type { ApiMetrics } from './surface-api';
import { pascal } from '../naming';

/**
 * Access log line of an HTTP API: the REST surfaces' fields where HTTP APIs have them
 * (`routeKey` for the resource path; no API key; `error.message` for the gateway's own refusals).
 */
export const httpAccessLogFields = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTimeEpoch',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  status: '$context.status',
  latency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  responseLength: '$context.responseLength',
  error: '$context.error.message',
} as const;

export interface HttpSurfaceApiProps {
  surfaceName: SurfaceName;
  surface: SurfaceDefinition;
  /** The manifest routes of this surface. */
  routes: readonly RouteDefinition[];
  functionOf: (group: EndpointGroup) => lambda.IFunction;
  apiName: string;
  /** The stage's default route throttle (the REST stages' `stageThrottle`). */
  stageThrottle: { rateLimit: number; burstLimit: number };
}

export class HttpSurfaceApi extends Construct {
  readonly api: apigatewayv2.HttpApi;
  readonly stage: apigatewayv2.HttpStage;
  readonly stageName: string;
  /** Routes by `routeKey(method, resourcePath)`, e.g. `POST /meta/whatsapp`. */
  readonly routes = new Map<string, apigatewayv2.HttpRoute>();
  readonly accessLogGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: HttpSurfaceApiProps) {
    super(scope, id);
    const { surface, routes } = props;
    if (surface.frontDoor !== 'http-api') throw new Error(`${props.surfaceName}: its front door is ${surface.frontDoor}, not an HTTP API`);
    const keyed = routes.find(requiresGatewayApiKey);
    if (keyed) throw new Error(`${props.surfaceName}: ${keyed.method} ${keyed.path} needs a gateway-checked API key, which only a REST API has`);
    this.stageName = surface.stage;

    this.accessLogGroup = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    // No $default stage: the named stage puts its name first in the path, as the REST surfaces do.
    this.api = new apigatewayv2.HttpApi(this, 'Api', { apiName: props.apiName, description: surface.description, createDefaultStage: false });
    this.stage = new apigatewayv2.HttpStage(this, 'Stage', {
      httpApi: this.api,
      stageName: surface.stage,
      autoDeploy: true,
      description: `${surface.description} (${surface.stage})`,
      throttle: props.stageThrottle,
      // Per-route metrics, so the webhook's POST and its handshake are told apart on the dashboard.
      detailedMetricsEnabled: true,
      accessLogSettings: {
        destination: new apigatewayv2.LogGroupLogDestination(this.accessLogGroup),
        format: AccessLogFormat.custom(JSON.stringify(httpAccessLogFields)),
      },
    });
    this.addRoutes(props);
    this.throttleGuardedRoutes(routes, props.stageThrottle);
  }

  /** One route per manifest route, each group's function behind one payload 1.0 integration. */
  private addRoutes(props: HttpSurfaceApiProps): void {
    const integrations = new Map<EndpointGroup, HttpLambdaIntegration>();
    for (const route of props.routes) {
      let integration = integrations.get(route.group);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${pascal(route.group)}Integration`, props.functionOf(route.group), {
          // 1.0: the REST API's proxy event (resource, httpMethod, headers, body as text), so the handler is the same.
          payloadFormatVersion: apigatewayv2.PayloadFormatVersion.VERSION_1_0,
          // One invoke permission per function and API, as the REST surfaces have.
          scopePermissionToRoute: false,
        });
        integrations.set(route.group, integration);
      }
      const path = resourcePath(route);
      const [created] = this.api.addRoutes({ path, methods: [route.method as apigatewayv2.HttpMethod], integration });
      this.routes.set(routeKey(route.method, path), created!);
    }
  }

  /**
   * The guards' method throttles as route settings of the stage (the L2 stage sets only the
   * default); every other route keeps the stage's default.
   */
  private throttleGuardedRoutes(routes: readonly RouteDefinition[], stageThrottle: { rateLimit: number; burstLimit: number }): void {
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number; DetailedMetricsEnabled: boolean }> = {};
    for (const route of routes) {
      const throttle = methodThrottleOf(route) ?? stageThrottle;
      routeSettings[routeKey(route.method, resourcePath(route))] = {
        ThrottlingRateLimit: throttle.rateLimit,
        ThrottlingBurstLimit: throttle.burstLimit,
        DetailedMetricsEnabled: true,
      };
    }
    (this.stage.node.defaultChild as apigatewayv2.CfnStage).addPropertyOverride('RouteSettings', routeSettings);
  }

  /**
   * Public URL of the surface: stage plus basePath, written as a REST surface's
   * (`https://<id>.execute-api.<region>.amazonaws.com/hooks/`; with a basePath, no trailing slash).
   */
  urlOf(basePath: string): string {
    return basePath ? `${this.stage.url}${basePath}` : `${this.stage.url}/`;
  }

  /** The stage's metrics, for the platform's alarms and dashboard. */
  metrics(): ApiMetrics {
    return {
      count: (options) => this.stage.metricCount(options),
      clientErrors: (options) => this.stage.metricClientError(options),
      serverErrors: (options) => this.stage.metricServerError(options),
      latency: (options) => this.stage.metricLatency(options),
    };
  }
}
