/**
 * The broadcast usage plan: per-method ceilings from the route manifest's rate-limit classes, a
 * key-wide throttle and a daily quota, on every stage whose routes a broadcast API key
 * authenticates; and the rights of the function that issues keys into it.
 */
import { Annotations, type Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import { routes } from '../runtime-contract/all-routes';
import {
  rateLimitClasses,
  requiresGatewayApiKey,
  resourcePath,
  routeKey,
  surfaces,
  type RateLimitClass,
  type RestApiSurfaceName,
  type RouteDefinition,
  type SurfaceName,
} from '../runtime-contract/route-manifest';
import type { ServiceFunction } from './constructs/service-function';
import type { SurfaceApi } from './constructs/surface-api';

/**
 * Daily request quota of a broadcast API key: above what any client of the contract needs
 * (the per-minute limits, used steadily through a working day, stay below it) and low enough to
 * cap what a leaked key or a client stuck in a retry loop can cost in a day.
 */
export const broadcastDailyQuota = 100_000;

/** Usage-plan throttle of a route, from its rate-limit class (undefined when the class has none). */
export const usagePlanThrottleOf = (route: RouteDefinition): RateLimitClass['usagePlanThrottle'] =>
  (rateLimitClasses[route.rateLimit] as RateLimitClass).usagePlanThrottle;

/** Routes a broadcast API key authenticates; their methods require the key and count against the plan. */
export const keyedRoutes = (): RouteDefinition[] => routes.filter(requiresGatewayApiKey);

/** Surfaces whose stage the broadcast usage plan serves: the broadcast surface and any with keyed routes. */
export const broadcastPlanSurfaces = (): SurfaceName[] =>
  (Object.keys(surfaces) as SurfaceName[]).filter((name) => name === 'broadcast' || keyedRoutes().some((route) => route.surface === name));

/** The key-wide throttle of the broadcast plan: every method at its own ceiling at once (sum of
 * rates), with the largest method bucket as the key's burst. Per-method limits stay below it. */
export function broadcastPlanThrottle(): { rateLimit: number; burstLimit: number } {
  const throttles = keyedRoutes()
    .map(usagePlanThrottleOf)
    .filter((throttle) => throttle !== undefined);
  if (throttles.length === 0) return { rateLimit: 10, burstLimit: 20 };
  return {
    rateLimit: throttles.reduce((sum, throttle) => sum + throttle.rateLimit, 0),
    burstLimit: Math.max(...throttles.map((throttle) => throttle.burstLimit)),
  };
}

/** The plan on the stages of `keyedSurfaces`, each keyed method with its class's throttle. */
export function createBroadcastUsagePlan(
  stack: Stack,
  surfaceApis: Record<RestApiSurfaceName, SurfaceApi>,
  keyedSurfaces: SurfaceName[],
): apigateway.UsagePlan {
  const plan = new apigateway.UsagePlan(stack, 'BroadcastUsagePlan', {
    name: 'broadcast',
    description: 'Broadcast API keys: per-method ceilings from the route manifest, key-wide throttle and daily quota',
    throttle: broadcastPlanThrottle(),
    quota: { limit: broadcastDailyQuota, period: apigateway.Period.DAY },
  });
  for (const surfaceName of keyedSurfaces) {
    const surfaceApi = (surfaceApis as Partial<Record<SurfaceName, SurfaceApi>>)[surfaceName];
    // Only a REST API has usage plans and API keys (an HTTP API surface refuses keyed routes itself).
    if (!surfaceApi)
      throw new Error(`Broadcast usage plan: surface ${surfaceName} has keyed routes but no REST API (front door ${surfaces[surfaceName].frontDoor})`);
    plan.addApiStage({ api: surfaceApi.api, stage: surfaceApi.api.deploymentStage, throttle: methodThrottles(surfaceName, surfaceApi) });
  }
  return plan;
}

function methodThrottles(surfaceName: SurfaceName, surfaceApi: SurfaceApi): apigateway.ThrottlingPerMethod[] {
  const throttle: apigateway.ThrottlingPerMethod[] = [];
  for (const route of routes.filter((candidate) => candidate.surface === surfaceName)) {
    const limits = usagePlanThrottleOf(route);
    if (!limits) continue;
    const key = routeKey(route.method, resourcePath(route));
    if (!requiresGatewayApiKey(route)) {
      // A usage plan only meters requests that carry its key; the limit would never apply.
      Annotations.of(surfaceApi).addWarningV2(
        'platform:usagePlanThrottleWithoutKey',
        `${key} has usage-plan throttle class ${route.rateLimit} but does not require a broadcast API key`,
      );
      continue;
    }
    // The method key API Gateway expects is the full resource path plus method, e.g.
    // `/api/v2/broadcast/public/templates/GET`; CDK derives it from the Method.
    throttle.push({ method: surfaceApi.methods.get(key)!, throttle: limits });
  }
  return throttle;
}

/**
 * Issuing keys at run time (generate-key): exactly the registry's three calls. Keys are created
 * only tagged `origin: generate-key`, and the function may delete (its clean-up after a failed
 * plan registration) only keys carrying that tag, so it cannot touch keys an operator issued.
 */
export function allowApiKeyManagement(stack: Stack, fn: ServiceFunction, plan: apigateway.UsagePlan): void {
  const apiGatewayArn = (path: string) => `arn:${stack.partition}:apigateway:${stack.region}::${path}`;
  const minted = { 'aws:ResourceTag/origin': 'generate-key' };
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      sid: 'CreateGenerateKeyApiKeys',
      actions: ['apigateway:POST'],
      resources: [apiGatewayArn('/apikeys')],
      conditions: { StringEquals: { 'aws:RequestTag/origin': 'generate-key' } },
    }),
  );
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      sid: 'AddKeysToBroadcastPlan',
      actions: ['apigateway:POST'],
      resources: [apiGatewayArn(`/usageplans/${plan.usagePlanId}/keys`)],
    }),
  );
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      sid: 'DeleteOwnGenerateKeyApiKeys',
      actions: ['apigateway:DELETE'],
      resources: [apiGatewayArn('/apikeys/*')],
      conditions: { StringEquals: minted },
    }),
  );
  fn.addEnvironment('BROADCAST_USAGE_PLAN_ID', plan.usagePlanId);
}
