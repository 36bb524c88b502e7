/**
 * The platform as `cdk deploy` would create it, run locally from a synthesized assembly: tables
 * and queues created from the templates' own resource properties, every function's bundled
 * asset in its own worker with exactly its template environment (resolved to the local
 * resources) and an IAM-checking endpoint, SQS event source mappings from the template, and a
 * gateway whose routes, key requirements and usage-plan throttles are the template's methods.
 *
 * Only configuration differs from AWS: endpoints (each function's own recording proxy), dummy
 * credentials and the Graph API base URL (the Cloud API sandbox).
 */
import { CreateTableCommand, DynamoDBClient, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { emulatorCredentials, startDynalite, startFauxqsEmulator } from '../../../local/emulators';
import { startLocalGateway, type ProxyHandler } from '../../../local/gateway/local-gateway';
import type { AuthorizerHandler } from '../../../local/gateway/request-authorizer';
import { requestAuthorizer } from '../../../runtime-contract/resource-definitions';
import { startSqsEventSource, type SqsBatchHandler, type SqsEventSource } from '../../../local/sqs-event-source';
import { demoSandboxAccounts, seedDemoTenant, type DemoTenant } from '../../../local/demo-seed';
import { metaWebhookPath } from '../../../local/local-runtime';
import { getServices, resetServicesForTests } from '../../../functions/composition';
import {
  rateLimitClasses,
  surfaces,
  type EndpointGroup,
  type RateLimitClassName,
  type RouteDefinition,
  type SurfaceName,
} from '../../../runtime-contract/route-manifest';
import type { HttpMethod } from '../../../runtime-contract/http-types';
import { startCloudApiSandbox, type CloudApiSandbox, type SandboxOptions } from '../../../sandbox/cloud-api-sandbox';
import { IntrinsicResolver, localRegion, resourcesOfType, resourceKey, type CloudAssembly, type Json } from './cloud-assembly';
import { startApiGatewayEmulator, startKmsEmulator, startSchedulerEmulator, type SchedulerEmulator, type StoredSchedule } from './control-plane-emulators';
import { plannedLocalResources } from './local-names';
import { deployedFunctions, deployedRoutes, eventSourceMappings, type DeployedFunction, type DeployedRoute } from './deployed-model';
import { FunctionHost } from './function-host';
import { IamLedger, startAwsEndpointProxy } from './iam-recorder';
import { schedulerFiring, startScheduledRules, type RuleRunner } from './service-invocations';

export interface DeployedRuntimeOptions {
  assembly: CloudAssembly;
  /** Tuning for every function (as the local runtime's `environment`): pacing, backoff. */
  environment?: Record<string, string>;
  sandbox?: SandboxOptions;
  /** The sandbox posts Meta's signed webhooks to the template's webhook route. Default false. */
  sandboxWebhooks?: boolean;
  /**
   * How often the template's scheduled EventBridge rules invoke their targets (ms). Default 1,000:
   * far faster than their `rate(...)` (a minute and more), so a suite sees them run.
   */
  scheduledRuleIntervalMs?: number;
}

export interface DeployedRuntime {
  baseUrl: string;
  sandbox: CloudApiSandbox;
  demo: DemoTenant;
  ledger: IamLedger;
  functions: DeployedFunction[];
  routes: DeployedRoute[];
  hosts: Map<string, FunctionHost>;
  /** Environments the functions run with, by function name. */
  environments: Record<string, Record<string, string>>;
  /** Table time-to-live attributes the templates declare (dynalite cannot expire items). */
  timeToLive: Record<string, string>;
  /** EventBridge Scheduler: the schedules that exist and the firings so far. */
  scheduler: SchedulerEmulator;
  /** The scheduled rules the harness runs (`rule → function`) and their failed invocations. */
  rules: RuleRunner;
  workersIdle(): Promise<void>;
  stop(): Promise<void>;
}

/** Variables naming an AWS endpoint: the same code runs against emulators through these only. */
const endpointVariables = ['DYNAMODB_ENDPOINT', 'SQS_ENDPOINT', 'KMS_ENDPOINT', 'APIGATEWAY_ENDPOINT', 'SCHEDULER_ENDPOINT'];

/** Queues in creation order: a dead-letter queue before the queue whose redrive policy names it. */
function queuesInOrder(assembly: CloudAssembly): ReturnType<typeof resourcesOfType> {
  const all = resourcesOfType(assembly, 'AWS::SQS::Queue');
  const targetOf = (entry: (typeof all)[number]): string | undefined => {
    const target = (entry.resource.Properties?.RedrivePolicy as { deadLetterTargetArn?: Json } | undefined)?.deadLetterTargetArn as
      | { 'Fn::GetAtt'?: string[] }
      | undefined;
    return target?.['Fn::GetAtt']?.[0];
  };
  return [...all.filter((entry) => !targetOf(entry)), ...all.filter((entry) => targetOf(entry))];
}

export async function startDeployedRuntime(options: DeployedRuntimeOptions): Promise<DeployedRuntime> {
  const { assembly } = options;
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    stops.length = 0;
  };
  try {
    const dynalite = await startDynalite({});
    stops.push(dynalite.stop);
    const fauxqs = await startFauxqsEmulator({});
    stops.push(fauxqs.stop);
    const kms = await startKmsEmulator();
    stops.push(kms.stop);
    const apiGateway = await startApiGatewayEmulator();
    stops.push(apiGateway.stop);
    // Fires through the template's roles and functions, known once the functions are (below).
    let fireSchedule: (schedule: StoredSchedule) => Promise<void> = async () => {
      throw new Error('the deployed runtime is still starting');
    };
    const scheduler = await startSchedulerEmulator({ fire: (schedule) => fireSchedule(schedule) });
    stops.push(scheduler.stop);
    const sandbox = await startCloudApiSandbox({ port: 0, throughputPerSecond: 1000, ...options.sandbox });
    stops.push(() => sandbox.close());

    const clientSettings = { region: localRegion, credentials: emulatorCredentials };
    const dynamodb = new DynamoDBClient({ ...clientSettings, endpoint: dynalite.endpoint });
    const sqs = new SQSClient({ ...clientSettings, endpoint: fauxqs.endpoint });
    stops.push(async () => {
      dynamodb.destroy();
      sqs.destroy();
    });

    const locals = plannedLocalResources(assembly);
    const resolver = new IntrinsicResolver(assembly, locals);

    // Tables: the template's key schema, attribute definitions and indexes, as CloudFormation would create them.
    const timeToLive: Record<string, string> = {};
    for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::DynamoDB::Table')) {
      const properties = resolver.resolve(resource.Properties as Json, stack) as Record<string, Json>;
      const tableName = locals.get(resourceKey(stack, logicalId))!.ref;
      const input = {
        TableName: tableName,
        AttributeDefinitions: properties.AttributeDefinitions,
        KeySchema: properties.KeySchema,
        BillingMode: properties.BillingMode ?? 'PROVISIONED',
        ProvisionedThroughput:
          properties.ProvisionedThroughput ?? (properties.BillingMode === 'PAY_PER_REQUEST' ? undefined : { ReadCapacityUnits: 5, WriteCapacityUnits: 5 }),
        GlobalSecondaryIndexes: properties.GlobalSecondaryIndexes,
        LocalSecondaryIndexes: properties.LocalSecondaryIndexes,
      } as unknown as CreateTableCommandInput;
      await dynamodb.send(new CreateTableCommand(input));
      const ttl = properties.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
      if (ttl?.Enabled && ttl.AttributeName) timeToLive[tableName] = ttl.AttributeName;
    }

    // Queues: visibility timeout, retention, delay and redrive policy (dead-letter queue, max receives) from the template.
    const queueUrlsByArn = new Map<string, string>();
    for (const { stack, logicalId, resource } of queuesInOrder(assembly)) {
      const properties = resolver.resolve(resource.Properties as Json, stack) as Record<string, Json>;
      const planned = locals.get(resourceKey(stack, logicalId))!;
      const attributes: Record<string, string> = {};
      for (const name of ['VisibilityTimeout', 'MessageRetentionPeriod', 'DelaySeconds', 'ReceiveMessageWaitTimeSeconds', 'MaximumMessageSize']) {
        if (properties[name] !== undefined && properties[name] !== null) attributes[name] = String(properties[name]);
      }
      if (properties.RedrivePolicy) attributes.RedrivePolicy = JSON.stringify(properties.RedrivePolicy);
      const created = await sqs.send(new CreateQueueCommand({ QueueName: planned.attributes!.QueueName, Attributes: attributes }));
      const arn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
      if (arn !== planned.attributes!.Arn) throw new Error(`fauxqs named ${logicalId} ${arn}, not ${planned.attributes!.Arn}`);
      queueUrlsByArn.set(arn, created.QueueUrl!);
      locals.set(resourceKey(stack, logicalId), { ref: created.QueueUrl!, attributes: { ...planned.attributes, QueueUrl: created.QueueUrl! } });
    }

    for (const { stack, logicalId } of resourcesOfType(assembly, 'AWS::KMS::Key')) kms.createKey(locals.get(resourceKey(stack, logicalId))!.ref);
    const usagePlanIds: string[] = [];
    for (const { stack, logicalId } of resourcesOfType(assembly, 'AWS::ApiGateway::UsagePlan')) {
      const id = locals.get(resourceKey(stack, logicalId))!.ref;
      apiGateway.addUsagePlan(id);
      usagePlanIds.push(id);
    }

    const functions = deployedFunctions(assembly, resolver);
    const ledger = new IamLedger();
    const upstreams: Record<string, string> = {
      dynamodb: dynalite.endpoint,
      sqs: fauxqs.endpoint,
      kms: kms.endpoint,
      apigateway: apiGateway.endpoint,
      scheduler: scheduler.endpoint,
    };
    const hosts = new Map<string, FunctionHost>();
    const proxies = new Map<string, string>();
    const environments: Record<string, Record<string, string>> = {};
    for (const fn of functions) {
      const proxy = await startAwsEndpointProxy({
        functionName: fn.name,
        statements: fn.statements,
        ledger,
        tags: { apiKeyTags: (id) => apiGateway.apiKey(id)?.tags },
        upstreamOf: (service) => upstreams[service],
      });
      stops.push(proxy.stop);
      proxies.set(fn.key, proxy.endpoint);
      const environment: Record<string, string> = {
        ...fn.environment,
        ...FunctionHost.lambdaVariables(fn),
        AWS_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
        AWS_SESSION_TOKEN: 'local-session',
        ...Object.fromEntries(endpointVariables.map((name) => [name, proxy.endpoint])),
        // The SDK's own setting: a client the configuration gives no endpoint (a service added later) still reaches the check.
        AWS_ENDPOINT_URL: proxy.endpoint,
        ...(fn.environment.GRAPH_API_BASE_URL !== undefined ? { GRAPH_API_BASE_URL: sandbox.url } : {}),
        // As in the local runtime: webhook receivers on this machine (plain http, loopback) may be used.
        CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK: '1',
        ...options.environment,
      };
      environments[fn.name] = environment;
      const host = new FunctionHost(fn, environment);
      hosts.set(fn.key, host);
      stops.push(() => host.stop());
    }
    const functionByPhysicalName = new Map(functions.map((fn) => [fn.physicalName, fn]));

    // The operators' side (demo seed) in this thread, from the union of the functions' variables, straight to the emulators.
    const operatorEnvironment: Record<string, string> = {
      ...Object.assign({}, ...functions.map((fn) => fn.environment)),
      AWS_REGION: localRegion,
      AWS_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
      DYNAMODB_ENDPOINT: dynalite.endpoint,
      SQS_ENDPOINT: fauxqs.endpoint,
      KMS_ENDPOINT: kms.endpoint,
      APIGATEWAY_ENDPOINT: apiGateway.endpoint,
      SCHEDULER_ENDPOINT: scheduler.endpoint,
      GRAPH_API_BASE_URL: sandbox.url,
      ...options.environment,
    };
    const previous = Object.fromEntries(Object.keys(operatorEnvironment).map((name) => [name, process.env[name]]));
    stops.push(async () => {
      for (const [name, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      resetServicesForTests();
    });
    Object.assign(process.env, operatorEnvironment);
    resetServicesForTests();
    const services = getServices();
    for (const account of demoSandboxAccounts()) sandbox.registerBusinessAccount(account);
    const demo = await seedDemoTenant(services, sandbox);
    await services.metaApp.configure({ appSecret: demo.metaAppSecret, verifyToken: demo.webhookVerifyToken });

    // The gateway: the template's methods; the runtime contract only lends each stage its gateway responses.
    const routes = deployedRoutes(assembly, resolver);
    const surfaceOfStage = new Map(
      (Object.entries(surfaces) as Array<[SurfaceName, (typeof surfaces)[SurfaceName]]>).map(([name, surface]) => [surface.stage, name]),
    );
    const anyRateLimitClass = Object.keys(rateLimitClasses)[0] as RateLimitClassName;
    const gatewayRoutes: RouteDefinition[] = [];
    const settingsByRoute = new Map<RouteDefinition, DeployedRoute>();
    for (const route of routes) {
      const surfaceName = surfaceOfStage.get(route.stageName);
      if (!surfaceName) throw new Error(`stage ${route.stageName} has no surface in the runtime contract (gateway responses)`);
      const fn = functionByPhysicalName.get(route.functionName);
      if (!fn) throw new Error(`${route.method} /${route.stageName}${route.resourcePath} integrates ${route.functionName}, which the assembly does not define`);
      const basePath = surfaces[surfaceName].basePath;
      if (!route.resourcePath.startsWith(basePath)) throw new Error(`${route.resourcePath} lies outside the base path ${basePath} of stage ${route.stageName}`);
      const definition: RouteDefinition = {
        surface: surfaceName,
        method: route.method as HttpMethod,
        path: route.resourcePath.slice(basePath.length) || '/',
        group: fn.key as EndpointGroup,
        operation: route.operationName ?? `${route.method} ${route.resourcePath}`,
        auth: 'none',
        rateLimit: anyRateLimitClass,
      };
      gatewayRoutes.push(definition);
      settingsByRoute.set(definition, route);
    }
    const hostOf = (key: string): FunctionHost => hosts.get(key)!;
    const fnOf = (key: string): DeployedFunction => functions.find((fn) => fn.key === key)!;
    const gateway = await startLocalGateway({
      port: 0,
      routes: gatewayRoutes,
      routeSettings: (definition) => {
        const route = settingsByRoute.get(definition)!;
        const fn = fnOf(definition.group);
        return {
          requiresApiKey: route.apiKeyRequired,
          throttle: route.throttle,
          methodThrottle: route.methodThrottle,
          functionName: fn.physicalName,
          memoryLimitInMB: String(fn.memoryMb),
        };
      },
      functionTimeoutMs: (group) => fnOf(group).timeoutSeconds * 1000,
      loadHandler: async (group) => ((event: APIGatewayProxyEvent, context: Context) => hostOf(group).invoke(event, context.awsRequestId)) as ProxyHandler,
      isApiKeyEnabled: async (apiKey) => apiGateway.isKeyInPlan(apiKey, usagePlanIds),
      // The keyed methods' request authorizer, the bundled function as deployed (docs/PEOPLE.md "On AWS").
      ...requestAuthorizerOf(functions, hostOf),
    });
    stops.push(() => gateway.close());
    if (options.sandboxWebhooks) {
      sandbox.webhooks.configure({ url: `${gateway.url}${metaWebhookPath}`, appSecret: demo.metaAppSecret });
      stops.push(async () => void sandbox.webhooks.configure({ enabled: false }));
    } else {
      sandbox.webhooks.configure({ enabled: false });
    }

    // Event source mappings: the template's batch size, concurrency and partial batch responses.
    // Polling uses the function's role (its endpoint), as Lambda's pollers do.
    const sources: SqsEventSource[] = [];
    for (const mapping of eventSourceMappings(assembly, resolver, new Map(functions.map((fn) => [fn.key, fn])))) {
      const fn = fnOf(mapping.functionKey);
      const queueUrl = queueUrlsByArn.get(mapping.queueArn);
      if (!queueUrl) throw new Error(`${fn.name}: event source ${mapping.queueArn} is not a queue of the assembly`);
      const poller = new SQSClient({ ...clientSettings, endpoint: proxies.get(fn.key) });
      const source = startSqsEventSource({
        sqs: poller,
        queueUrl,
        queueArn: mapping.queueArn,
        handler: ((event) => hostOf(fn.key).invoke(event)) as SqsBatchHandler,
        batchSize: mapping.batchSize,
        // One process serves every function and one dynalite: a few batches at a time keep the emulator responsive.
        maxConcurrency: Math.min(4, mapping.maximumConcurrency ?? 4),
        functionTimeoutSeconds: fn.timeoutSeconds,
        reportBatchItemFailures: mapping.reportBatchItemFailures,
        functionName: fn.physicalName,
        memoryMb: fn.memoryMb,
      });
      sources.push(source);
      stops.push(async () => {
        await source.stop();
        poller.destroy();
      });
    }

    // AWS services invoking functions: schedules through their target role, rules through the function's resource policy.
    const invokers = { assembly, resolver, functions, hostOf: (fn: DeployedFunction) => hostOf(fn.key), ledger };
    fireSchedule = schedulerFiring(invokers);
    const rules = startScheduledRules(invokers, options.scheduledRuleIntervalMs ?? 1000);
    stops.push(() => rules.stop());

    return {
      baseUrl: gateway.url,
      sandbox,
      demo,
      ledger,
      functions,
      routes,
      hosts: new Map(functions.map((fn) => [fn.name, hostOf(fn.key)])),
      environments,
      timeToLive,
      scheduler,
      rules,
      workersIdle: async () => {
        await Promise.all(sources.map((source) => source.idle()));
        await Promise.all(sources.map((source) => source.idle()));
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The bundled request-authorizer's host as the gateway's authorizer, when the assembly has one. */
function requestAuthorizerOf(
  functions: readonly DeployedFunction[],
  hostOf: (key: string) => FunctionHost,
): { loadRequestAuthorizer?: () => Promise<AuthorizerHandler> } {
  const authorizer = functions.find((fn) => fn.name === requestAuthorizer.functionName);
  if (!authorizer) return {};
  return { loadRequestAuthorizer: async () => ((event, context) => hostOf(authorizer.key).invoke(event, context.awsRequestId)) as AuthorizerHandler };
}
