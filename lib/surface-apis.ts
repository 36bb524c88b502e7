/**
 * The surfaces' front doors, by their `frontDoor` in the route manifest: one REST API
 * (`SurfaceApi`) per `rest-api` surface, every method proxied to its group's function by ARN, and
 * the account-level role API Gateway needs to write stage logs; one HTTP API (`HttpSurfaceApi`) per
 * `http-api` surface (Meta's webhooks).
 */
import { ArnFormat, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import { routes } from '../runtime-contract/all-routes';
import {
  httpApiSurfaceNames,
  restApiSurfaceNames,
  surfaces,
  type EndpointGroup,
  type HttpApiSurfaceName,
  type RestApiSurfaceName,
  type SurfaceName,
} from '../runtime-contract/route-manifest';
import { requestAuthorizer, type FunctionName } from '../runtime-contract/resource-definitions';
import type { ServiceFunction } from './constructs/service-function';
import { SurfaceApi, type ApiMetrics, type FunctionTarget } from './constructs/surface-api';
import { HttpSurfaceApi } from './constructs/http-surface-api';
import type { PlatformSettings } from './settings';
import { pascal } from './naming';

export interface SurfaceApisProps {
  serviceFunctions: Record<FunctionName, ServiceFunction>;
  settings: PlatformSettings;
  /** Surfaces whose stage the broadcast usage plan serves: their APIs take the key from the request authorizer. */
  keyedSurfaces: SurfaceName[];
  /** Create the region-wide API Gateway CloudWatch role (needed for stage logging). */
  manageApiGatewayAccountRole: boolean;
}

/** What the stack reads of every surface's front door, whichever kind: its URL, stage and metrics. */
export interface FrontDoor {
  readonly stageName: string;
  urlOf(basePath: string): string;
  metrics(): ApiMetrics;
}

/** One REST API per `rest-api` surface, `<Surface>Api`, each with the routes of its surface. */
export function createSurfaceApis(stack: Stack, props: SurfaceApisProps): Record<RestApiSurfaceName, SurfaceApi> {
  const stageDependencies = props.manageApiGatewayAccountRole ? [createApiGatewayAccountRole(stack)] : [];
  const targetOf = functionTargets(stack, props.serviceFunctions);
  return Object.fromEntries(
    restApiSurfaceNames.map((surfaceName) => [
      surfaceName,
      new SurfaceApi(stack, `${pascal(surfaceName)}Api`, {
        surfaceName,
        surface: surfaces[surfaceName],
        routes: routes.filter((route) => route.surface === surfaceName),
        targetOf,
        restApiName: `${stack.stackName}-${surfaceName}`,
        stageThrottle: props.settings.stageThrottle,
        // The keyed methods' authorizer names the usage-plan key: the x-api-key as sent, or a person's own (docs/PEOPLE.md "On AWS").
        apiKeySource: props.keyedSurfaces.includes(surfaceName) ? apigateway.ApiKeySourceType.AUTHORIZER : undefined,
        requestAuthorizer: props.keyedSurfaces.includes(surfaceName) ? props.serviceFunctions[requestAuthorizer.functionName] : undefined,
        stageDependencies,
      }),
    ]),
  ) as Record<RestApiSurfaceName, SurfaceApi>;
}

/**
 * One HTTP API per `http-api` surface, `<Surface>HttpApi`: a logical id of its own, so a surface
 * moved from a REST API is a new resource (a REST API cannot become an HTTP API in place).
 */
export function createHttpSurfaceApis(
  stack: Stack,
  props: Pick<SurfaceApisProps, 'serviceFunctions' | 'settings'>,
): Record<HttpApiSurfaceName, HttpSurfaceApi> {
  // No WAF can stand in front of an HTTP API: the source ranges it hears are checked by the function
  // itself, before any signature work (shared/meta-app/webhook-source-guard.ts; none configured: every address).
  const ranges = props.settings.metaWebhookSourceRanges;
  if (ranges.length > 0) props.serviceFunctions['meta-webhook'].addEnvironment('META_WEBHOOK_SOURCE_RANGES', ranges.join(','));
  return Object.fromEntries(
    httpApiSurfaceNames.map((surfaceName) => [
      surfaceName,
      new HttpSurfaceApi(stack, `${pascal(surfaceName)}HttpApi`, {
        surfaceName,
        surface: surfaces[surfaceName],
        routes: routes.filter((route) => route.surface === surfaceName),
        functionOf: (group) => props.serviceFunctions[group],
        apiName: `${stack.stackName}-${surfaceName}`,
        stageThrottle: props.settings.stageThrottle,
      }),
    ]),
  ) as Record<HttpApiSurfaceName, HttpSurfaceApi>;
}

/** Every surface's front door by name (REST and HTTP APIs together), for outputs, alarms and the dashboard. */
export const frontDoorsOf = (rest: Record<RestApiSurfaceName, SurfaceApi>, http: Record<HttpApiSurfaceName, HttpSurfaceApi>): Record<SurfaceName, FrontDoor> =>
  Object.fromEntries(
    (Object.keys(surfaces) as SurfaceName[]).map((name) => [
      name,
      (rest as Partial<Record<SurfaceName, FrontDoor>>)[name] ?? (http as Partial<Record<SurfaceName, FrontDoor>>)[name]!,
    ]),
  ) as Record<SurfaceName, FrontDoor>;

/**
 * The proxy integration of each group, shared by its methods. Functions are addressed through an
 * ARN built from their fixed physical name rather than a reference to the function resource:
 * otherwise the key-issuing function (which must know the broadcast usage plan id) would close a
 * CloudFormation cycle: function → usage plan → stage → deployment → method → function.
 */
function functionTargets(stack: Stack, serviceFunctions: Record<FunctionName, ServiceFunction>): (group: EndpointGroup) => FunctionTarget {
  const targets = new Map<EndpointGroup, FunctionTarget>();
  return (group) => {
    let target = targets.get(group);
    if (!target) {
      const handler = serviceFunctions[group];
      const functionArn = stack.formatArn({
        service: 'lambda',
        resource: 'function',
        resourceName: handler.fixedFunctionName,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      });
      const integration = new apigateway.AwsIntegration({ proxy: true, service: 'lambda', path: `2015-03-31/functions/${functionArn}/invocations` });
      target = { integration, handler };
      targets.set(group, target);
    }
    return target;
  };
}

/**
 * API Gateway writes stage logs only with an account-level CloudWatch role (one per region).
 * Retained like CDK's own `cloudWatchRole`: deleting it would break logging of every other API
 * in the region that relies on the same setting.
 */
function createApiGatewayAccountRole(stack: Stack): apigateway.CfnAccount {
  const role = new iam.Role(stack, 'ApiGatewayCloudWatchRole', {
    assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
    description: 'Lets API Gateway write execution and access logs (account-level setting)',
    // AWS's managed policy for exactly this purpose; API Gateway names its execution log groups itself.
    managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
  });
  role.applyRemovalPolicy(RemovalPolicy.RETAIN);
  const account = new apigateway.CfnAccount(stack, 'ApiGatewayAccount', { cloudWatchRoleArn: role.roleArn });
  account.applyRemovalPolicy(RemovalPolicy.RETAIN);
  return account;
}
