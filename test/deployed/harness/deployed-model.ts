/**
 * The deployable model read back from the templates: functions (bundled asset, handler, timeout,
 * environment, role policy), SQS event source mappings and the routes of the REST APIs (with their
 * API key requirement and usage-plan throttles) and of the HTTP APIs (with their route throttles). Everything the deployed-run harness starts comes
 * from here, never from the runtime contract the CDK app was built from.
 */
import { join } from 'node:path';
import { resourcesOfType, resourceKey, type CloudAssembly, type IntrinsicResolver, type Json, type StackTemplate } from './cloud-assembly';
import { statementsOf, type PolicyStatement } from './iam-policy';

export interface DeployedFunction {
  /** The `function` tag the CDK app puts on it, else its physical name. */
  name: string;
  physicalName: string;
  key: string;
  assetDirectory: string;
  handler: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** Its `Environment.Variables`, intrinsics resolved. */
  environment: Record<string, string>;
  /** Every statement of its execution role's policies, intrinsics resolved. */
  statements: PolicyStatement[];
}

const refOf = (value: Json | undefined): string | undefined => (value as { Ref?: string } | null)?.Ref ?? undefined;
const getAttOf = (value: Json | undefined): string | undefined => {
  const argument = (value as { 'Fn::GetAtt'?: Json } | null)?.['Fn::GetAtt'];
  return Array.isArray(argument) ? String(argument[0]) : typeof argument === 'string' ? argument.split('.')[0] : undefined;
};

export function roleStatements(assembly: CloudAssembly, stack: StackTemplate, roleLogicalId: string, resolver: IntrinsicResolver): PolicyStatement[] {
  const statements: PolicyStatement[] = [];
  const role = stack.template.Resources[roleLogicalId];
  for (const inline of (role?.Properties?.Policies as Array<{ PolicyDocument: Json }> | undefined) ?? []) {
    statements.push(...statementsOf(resolver.resolve(inline.PolicyDocument, stack)));
  }
  for (const { resource } of resourcesOfType(assembly, 'AWS::IAM::Policy').filter((entry) => entry.stack === stack)) {
    const roles = (resource.Properties?.Roles as Json[] | undefined) ?? [];
    if (roles.some((entry) => refOf(entry) === roleLogicalId)) statements.push(...statementsOf(resolver.resolve(resource.Properties!.PolicyDocument, stack)));
  }
  return statements;
}

export function deployedFunctions(assembly: CloudAssembly, resolver: IntrinsicResolver): DeployedFunction[] {
  return resourcesOfType(assembly, 'AWS::Lambda::Function').map(({ stack, logicalId, resource }) => {
    const properties = resource.Properties ?? {};
    const assetPath = resource.Metadata?.['aws:asset:path'];
    if (typeof assetPath !== 'string') throw new Error(`${logicalId}: no bundled asset in the assembly (synthesized with skipBundling?)`);
    const physicalName = String(resolver.resolve(properties.FunctionName ?? logicalId, stack));
    const tags = (properties.Tags as Array<{ Key: string; Value: string }> | undefined) ?? [];
    const roleLogicalId = getAttOf(properties.Role);
    const variables = ((properties.Environment as { Variables?: Json } | undefined)?.Variables ?? {}) as Record<string, Json>;
    return {
      name: tags.find((tag) => tag.Key === 'function')?.Value ?? physicalName,
      physicalName,
      key: resourceKey(stack, logicalId),
      assetDirectory: join(assembly.directory, assetPath),
      handler: String(properties.Handler ?? 'index.handler'),
      timeoutSeconds: Number(properties.Timeout ?? 3),
      memoryMb: Number(properties.MemorySize ?? 128),
      environment: Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, String(resolver.resolve(value, stack))])),
      statements: roleLogicalId ? roleStatements(assembly, stack, roleLogicalId, resolver) : [],
    };
  });
}

export interface EventSourceMapping {
  functionKey: string;
  queueArn: string;
  batchSize: number;
  maximumConcurrency?: number;
  reportBatchItemFailures: boolean;
}

export function eventSourceMappings(
  assembly: CloudAssembly,
  resolver: IntrinsicResolver,
  functionsByKey: ReadonlyMap<string, DeployedFunction>,
): EventSourceMapping[] {
  return resourcesOfType(assembly, 'AWS::Lambda::EventSourceMapping').map(({ stack, logicalId, resource }) => {
    const properties = resource.Properties ?? {};
    const functionLogicalId = refOf(properties.FunctionName) ?? getAttOf(properties.FunctionName);
    const functionKey = resourceKey(stack, functionLogicalId ?? '');
    if (!functionsByKey.has(functionKey)) throw new Error(`${logicalId}: FunctionName does not reference a function of the assembly`);
    return {
      functionKey,
      queueArn: String(resolver.resolve(properties.EventSourceArn, stack)),
      batchSize: Number(properties.BatchSize ?? 10),
      maximumConcurrency: (properties.ScalingConfig as { MaximumConcurrency?: number } | undefined)?.MaximumConcurrency,
      reportBatchItemFailures: ((properties.FunctionResponseTypes as string[] | undefined) ?? []).includes('ReportBatchItemFailures'),
    };
  });
}

export interface DeployedRoute {
  /** What serves it: a REST API method or an HTTP API route. */
  frontDoor: 'rest-api' | 'http-api';
  stageName: string;
  /** Resource path inside the stage, e.g. `/api/v2/broadcast/public/status/{jobId}`. */
  resourcePath: string;
  method: string;
  operationName?: string;
  /** Physical name of the integration's function. */
  functionName: string;
  apiKeyRequired: boolean;
  /** The usage plans that serve this stage. */
  usagePlanIds: string[];
  /** Per-method usage-plan throttle (`/{path}/{METHOD}` entry of the plan's stage). */
  throttle?: { rateLimit: number; burstLimit: number };
  /** The stage's method-level throttle of this method (its own `MethodSettings` entry), all callers together. */
  methodThrottle?: { rateLimit: number; burstLimit: number };
}

/** A stage's `MethodSettings` entries with a throttle, by `METHOD /resource/path` (API Gateway writes `/` as `~1`). */
function stageMethodThrottles(stage: Record<string, Json>): Map<string, { rateLimit: number; burstLimit: number }> {
  const throttles = new Map<string, { rateLimit: number; burstLimit: number }>();
  for (const entry of (stage.MethodSettings as Array<Record<string, Json>> | undefined) ?? []) {
    const resourcePath = String(entry.ResourcePath);
    if (resourcePath === '/*' || entry.ThrottlingRateLimit === undefined) continue;
    throttles.set(`${String(entry.HttpMethod)} ${resourcePath.replace(/~1/g, '/').replace(/^\/\//, '/')}`, {
      rateLimit: Number(entry.ThrottlingRateLimit),
      burstLimit: Number(entry.ThrottlingBurstLimit),
    });
  }
  return throttles;
}

/** Every route of the assembly: the REST APIs' methods and the HTTP APIs' routes. */
export const deployedRoutes = (assembly: CloudAssembly, resolver: IntrinsicResolver): DeployedRoute[] => [
  ...deployedRestRoutes(assembly, resolver),
  ...deployedHttpApiRoutes(assembly, resolver),
];

/** Every method of every REST API stage, with its key requirement, usage-plan throttle and the stage's method throttle. */
function deployedRestRoutes(assembly: CloudAssembly, resolver: IntrinsicResolver): DeployedRoute[] {
  const routes: DeployedRoute[] = [];
  for (const { stack, logicalId: apiId } of resourcesOfType(assembly, 'AWS::ApiGateway::RestApi')) {
    const resources = resourcesOfType(assembly, 'AWS::ApiGateway::Resource').filter(
      (entry) => entry.stack === stack && refOf(entry.resource.Properties?.RestApiId) === apiId,
    );
    const pathOf = (resourceId: string | undefined): string => {
      const entry = resources.find((candidate) => candidate.logicalId === resourceId);
      if (!entry) return '';
      return `${pathOf(refOf(entry.resource.Properties!.ParentId))}/${String(entry.resource.Properties!.PathPart)}`;
    };
    const stages = resourcesOfType(assembly, 'AWS::ApiGateway::Stage').filter(
      (entry) => entry.stack === stack && refOf(entry.resource.Properties?.RestApiId) === apiId,
    );
    const plans = resourcesOfType(assembly, 'AWS::ApiGateway::UsagePlan').filter((entry) => entry.stack === stack);
    for (const stage of stages) {
      const stageName = String(stage.resource.Properties!.StageName);
      const methodThrottles = stageMethodThrottles(stage.resource.Properties!);
      const servingPlans = plans.flatMap((plan) => {
        const apiStage = ((plan.resource.Properties?.ApiStages as Array<Record<string, Json>> | undefined) ?? []).find(
          (candidate) => refOf(candidate.ApiId) === apiId && refOf(candidate.Stage) === stage.logicalId,
        );
        return apiStage
          ? [
              {
                id: String(resolver.resolve({ Ref: plan.logicalId }, stack)),
                throttle: (apiStage.Throttle ?? {}) as Record<string, { RateLimit: number; BurstLimit: number }>,
              },
            ]
          : [];
      });
      for (const { resource: method } of resourcesOfType(assembly, 'AWS::ApiGateway::Method').filter(
        (entry) => entry.stack === stack && refOf(entry.resource.Properties?.RestApiId) === apiId,
      )) {
        const properties = method.Properties!;
        const resourceId = refOf(properties.ResourceId);
        const resourcePath = resourceId && resources.some((entry) => entry.logicalId === resourceId) ? pathOf(resourceId) : '/';
        const httpMethod = String(properties.HttpMethod);
        const uri = String(resolver.resolve((properties.Integration as Record<string, Json> | undefined)?.Uri ?? '', stack));
        const functionName = /:function:([^/:]+)(?::[^/]+)?\/invocations$/.exec(uri)?.[1];
        if (!functionName) continue; // not a Lambda proxy integration (e.g. a mock OPTIONS)
        const throttleEntry = servingPlans.map((plan) => plan.throttle[`${resourcePath}/${httpMethod}`]).find(Boolean);
        routes.push({
          frontDoor: 'rest-api',
          stageName,
          resourcePath,
          method: httpMethod,
          operationName: properties.OperationName as string | undefined,
          functionName,
          apiKeyRequired: properties.ApiKeyRequired === true,
          usagePlanIds: servingPlans.map((plan) => plan.id),
          throttle: throttleEntry ? { rateLimit: throttleEntry.RateLimit, burstLimit: throttleEntry.BurstLimit } : undefined,
          methodThrottle: methodThrottles.get(`${httpMethod} ${resourcePath}`),
        });
      }
    }
  }
  return routes;
}

/**
 * Every route of every HTTP API stage: Lambda proxies with payload format 1.0 only (the harness
 * hands functions the REST-style event), no API keys or usage plans, the stage's `RouteSettings`
 * throttle of the route as its method throttle (all callers together, like a REST method's).
 */
function deployedHttpApiRoutes(assembly: CloudAssembly, resolver: IntrinsicResolver): DeployedRoute[] {
  const routes: DeployedRoute[] = [];
  for (const { stack, logicalId: apiId } of resourcesOfType(assembly, 'AWS::ApiGatewayV2::Api')) {
    const ofApi = (type: string) =>
      resourcesOfType(assembly, type).filter((entry) => entry.stack === stack && refOf(entry.resource.Properties?.ApiId) === apiId);
    const integrations = ofApi('AWS::ApiGatewayV2::Integration');
    for (const stage of ofApi('AWS::ApiGatewayV2::Stage')) {
      const stageName = String(stage.resource.Properties!.StageName);
      const settings = (stage.resource.Properties!.RouteSettings ?? {}) as Record<string, { ThrottlingRateLimit?: number; ThrottlingBurstLimit?: number }>;
      for (const { logicalId, resource: route } of ofApi('AWS::ApiGatewayV2::Route')) {
        const routeKey = String(route.Properties!.RouteKey);
        const [method, resourcePath] = routeKey.split(' ') as [string, string];
        const target = JSON.stringify(route.Properties!.Target ?? '');
        const integration = integrations.find((candidate) => target.includes(`"${candidate.logicalId}"`))?.resource.Properties;
        if (!integration) throw new Error(`${logicalId} (${routeKey}): no integration of its API`);
        if (integration.IntegrationType !== 'AWS_PROXY' || integration.PayloadFormatVersion !== '1.0') {
          throw new Error(
            `${routeKey}: ${String(integration.IntegrationType)} payload ${String(integration.PayloadFormatVersion)}; the harness serves Lambda proxies with payload format 1.0 only`,
          );
        }
        const functionLogicalId = getAttOf(integration.IntegrationUri) ?? refOf(integration.IntegrationUri);
        const fn = functionLogicalId ? stack.template.Resources[functionLogicalId] : undefined;
        if (!fn || fn.Type !== 'AWS::Lambda::Function') throw new Error(`${routeKey}: its integration does not name a function of the stack`);
        const throttle = settings[routeKey];
        routes.push({
          frontDoor: 'http-api',
          stageName,
          resourcePath,
          method,
          functionName: String(resolver.resolve(fn.Properties?.FunctionName ?? functionLogicalId!, stack)),
          apiKeyRequired: false,
          usagePlanIds: [],
          methodThrottle:
            throttle?.ThrottlingRateLimit === undefined
              ? undefined
              : { rateLimit: Number(throttle.ThrottlingRateLimit), burstLimit: Number(throttle.ThrottlingBurstLimit) },
        });
      }
    }
  }
  return routes;
}
