/**
 * The stateless half: one Lambda function per function definition, one REST API per surface of
 * the route manifest, and the API Gateway usage plans. Receives the tables, queues and KMS key
 * of the StatefulStack as props and grants each function exactly what its definition declares.
 *
 * Functions are addressed by API integrations through an ARN built from their fixed physical
 * name rather than a reference to the function resource. Otherwise the key-issuing function
 * (which must know the broadcast usage plan id) would close a CloudFormation cycle:
 * function → usage plan → stage → deployment → method → function.
 */
import { ArnFormat, Annotations, CfnOutput, Duration, RemovalPolicy, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { bundlingSkipped, findMissingEntries, physicalFunctionName, ServiceFunction } from './constructs/service-function';
import { SurfaceApi, type FunctionTarget } from './constructs/surface-api';
import { ApiFirewall } from './constructs/api-firewall';
import { PlatformAlarms } from './constructs/platform-alarms';
import {
  broadcastScheduler,
  chunkWorker,
  deliveryEvents,
  customerEventsDispatcher,
  deadLetterEnvVarOf,
  functions,
  queues,
  tableActions,
  tableGrantOf,
  tables,
  type FunctionDefinition,
  type FunctionName,
  type QueueName,
  type TableName,
} from '../runtime-contract/resource-definitions';
import { routes } from '../runtime-contract/all-routes';
import {
  rateLimitClasses,
  requiresGatewayApiKey,
  resourcePath,
  routeKey,
  surfaces,
  type EndpointGroup,
  type RateLimitClass,
  type RouteDefinition,
  type SurfaceName,
} from '../runtime-contract/route-manifest';
import type { PlatformSettings } from './settings';
import type { StatefulResources } from './stateful-stack';
import { pascal } from './naming';

export interface ApiStackProps extends StackProps {
  stateful: StatefulResources;
  settings: PlatformSettings;
  /** Create the region-wide API Gateway CloudWatch role (needed for stage logging). Default true. */
  manageApiGatewayAccountRole?: boolean;
  /** Directory the Lambda entry paths are relative to. Default: the repository root. */
  entryRoot?: string;
}

/** AWS: the queue's visibility timeout should be at least six times the consumer's timeout. */
export const visibilityTimeoutFactor = 6;

/** Throws when a queue would hand a message to a second consumer while the first may still run. */
export function assertVisibilityCoversConsumer(queueName: string, visibilityTimeoutSeconds: number, consumerTimeoutSeconds: number): void {
  const required = visibilityTimeoutFactor * consumerTimeoutSeconds;
  if (visibilityTimeoutSeconds < required) {
    throw new Error(
      `Queue ${queueName}: visibility timeout ${visibilityTimeoutSeconds}s is below ${visibilityTimeoutFactor} x consumer timeout (${consumerTimeoutSeconds}s) = ${required}s`,
    );
  }
}

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
  const throttles = keyedRoutes().map(usagePlanThrottleOf).filter((throttle) => throttle !== undefined);
  if (throttles.length === 0) return { rateLimit: 10, burstLimit: 20 };
  return {
    rateLimit: throttles.reduce((sum, throttle) => sum + throttle.rateLimit, 0),
    burstLimit: Math.max(...throttles.map((throttle) => throttle.burstLimit)),
  };
}

/** The queue the chunk worker consumes. */
const chunkWorkerQueue: QueueName = 'outboundMessages';
/** The queue delivery-events consumes (Meta's webhook batches). */
const deliveryEventsQueue: QueueName = 'metaEvents';


export class ApiStack extends Stack {
  readonly functions: Record<FunctionName, ServiceFunction>;
  readonly surfaceApis: Record<SurfaceName, SurfaceApi>;
  readonly broadcastUsagePlan: apigateway.UsagePlan;
  /** Absent only with `-c skipFirewall=true` (LocalStack without WAFv2). */
  readonly firewall?: ApiFirewall;
  readonly observability: PlatformAlarms;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    const { stateful, settings, entryRoot, manageApiGatewayAccountRole, ...stackProps } = props;
    super(scope, id, {
      description: 'WhatsApp business-messaging platform: Lambda functions, REST APIs and usage plans (stateless)',
      ...stackProps,
    });
    const functionNames = Object.keys(functions) as FunctionName[];

    const workerQueue = stateful.queues[chunkWorkerQueue];
    assertVisibilityCoversConsumer(chunkWorkerQueue, visibilityTimeoutOf(workerQueue, chunkWorkerQueue), functions['chunk-worker'].timeoutSeconds);
    this.assertUpstreamTimeoutFits(settings);

    const missingEntries = findMissingEntries(functionNames, entryRoot);
    if (!bundlingSkipped(this, settings.skipBundling)) {
      if (missingEntries.length > 0) {
        throw new Error(
          `Cannot bundle: Lambda entry files missing: ${missingEntries.join(', ')}. Synthesize with -c skipBundling=true until they exist.`,
        );
      }
    } else {
      const message = `Bundling skipped: every function carries placeholder code that fails when invoked.${
        missingEntries.length > 0 ? ` Entries not written yet: ${missingEntries.join(', ')}.` : ''
      }`;
      // Explicit skipBundling deserves a warning (this template must not be deployed); a stack
      // the CLI merely did not select for bundling is not being deployed anyway.
      if (settings.skipBundling) Annotations.of(this).addWarningV2('platform:bundlingSkipped', message);
      else Annotations.of(this).addInfo(message);
    }

    this.functions = Object.fromEntries(
      functionNames.map((name) => [name, this.createFunction(name, functions[name], stateful, settings, entryRoot)]),
    ) as Record<FunctionName, ServiceFunction>;

    const worker = this.functions['chunk-worker'];
    worker.addEventSource(
      new SqsEventSource(workerQueue, {
        batchSize: chunkWorker.batchSize,
        maxBatchingWindow: Duration.seconds(chunkWorker.maxBatchingWindowSeconds),
        maxConcurrency: chunkWorker.maxConcurrency,
        // The worker reports the failed records of a batch; the others are not retried.
        reportBatchItemFailures: true,
      }),
    );

    const eventsQueue = stateful.queues[deliveryEventsQueue];
    assertVisibilityCoversConsumer(deliveryEventsQueue, visibilityTimeoutOf(eventsQueue, deliveryEventsQueue), functions['delivery-events'].timeoutSeconds);
    this.functions['delivery-events'].addEventSource(
      new SqsEventSource(eventsQueue, {
        batchSize: deliveryEvents.batchSize,
        maxBatchingWindow: Duration.seconds(deliveryEvents.maxBatchingWindowSeconds),
        maxConcurrency: deliveryEvents.maxConcurrency,
        // One failed webhook batch goes back alone; the others are not applied again.
        reportBatchItemFailures: true,
      }),
    );

    // Customer events: up to 10 deliveries per invocation, POSTed concurrently; retries are delayed copies.
    this.functions['customer-events'].addEventSource(
      new SqsEventSource(stateful.queues.customerEvents, {
        batchSize: customerEventsDispatcher.batchSize,
        maxBatchingWindow: Duration.seconds(customerEventsDispatcher.maxBatchingWindowSeconds),
        maxConcurrency: customerEventsDispatcher.maxConcurrency,
        reportBatchItemFailures: true,
      }),
    );

    this.createBroadcastScheduling(settings);

    const stageDependencies = manageApiGatewayAccountRole === false ? [] : [this.createApiGatewayAccountRole()];

    const targets = new Map<EndpointGroup, FunctionTarget>();
    const targetOf = (group: EndpointGroup): FunctionTarget => {
      let target = targets.get(group);
      if (!target) {
        const handler = this.functions[group];
        const functionArn = this.formatArn({
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

    const keyedSurfaces = broadcastPlanSurfaces();
    this.surfaceApis = Object.fromEntries(
      (Object.keys(surfaces) as SurfaceName[]).map((surfaceName) => [
        surfaceName,
        new SurfaceApi(this, `${pascal(surfaceName)}Api`, {
          surfaceName,
          surface: surfaces[surfaceName],
          routes: routes.filter((route) => route.surface === surfaceName),
          targetOf,
          restApiName: `${this.stackName}-${surfaceName}`,
          stageThrottle: settings.stageThrottle,
          apiKeySource: keyedSurfaces.includes(surfaceName) ? apigateway.ApiKeySourceType.HEADER : undefined,
          stageDependencies,
        }),
      ]),
    ) as Record<SurfaceName, SurfaceApi>;

    this.broadcastUsagePlan = this.createBroadcastUsagePlan(keyedSurfaces);
    // No v1 usage plans: a usage plan meters only `x-api-key` keys, and v1 keys are Bearer tokens that
    // no plan could ever be associated with. The per-plan limits are enforced exactly in the
    // application (route class `v1-plan`, DynamoDB sliding windows); see docs/ORGANIZATIONS-AND-V1.md.

    for (const name of functionNames) {
      if (functions[name].managesApiKeys) this.allowApiKeyManagement(this.functions[name], this.broadcastUsagePlan);
    }

    for (const surfaceName of Object.keys(surfaces) as SurfaceName[]) {
      new CfnOutput(this, `${pascal(surfaceName)}ApiUrl`, {
        value: this.surfaceApis[surfaceName].urlOf(surfaces[surfaceName].basePath),
        description: `${surfaces[surfaceName].description}: base URL (stage and basePath included)`,
      });
    }
    new CfnOutput(this, 'BroadcastUsagePlanId', { value: this.broadcastUsagePlan.usagePlanId, description: 'Usage plan of broadcast API keys' });

    // Protected and watched (docs/OPERATIONS.md): WAF on every stage; alarms and a dashboard for
    // every function, queue and API, derived from the definitions.
    if (settings.skipFirewall) {
      Annotations.of(this).addWarningV2('platform:firewallSkipped', 'skipFirewall: no WAF web ACL on any stage (LocalStack only; never deploy this to AWS)');
    } else {
      this.firewall = new ApiFirewall(this, 'Firewall', {
        surfaceApis: this.surfaceApis,
        routesOf: (surface) => routes.filter((route) => route.surface === surface),
        limits: settings.firewall,
        namePrefix: this.stackName,
      });
    }
    this.observability = new PlatformAlarms(this, 'Observability', {
      functions: this.functions,
      queues: stateful.queues,
      deadLetterQueues: stateful.deadLetterQueues,
      surfaceApis: this.surfaceApis,
      alarmEmail: settings.alarmEmail,
      metricsNamespace: settings.metricsNamespace,
      dashboardName: `${this.stackName}-operations`,
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.observability.topic.topicArn, description: 'SNS topic every alarm notifies' });
  }

  private createFunction(
    name: FunctionName,
    definition: FunctionDefinition,
    stateful: StatefulResources,
    settings: PlatformSettings,
    entryRoot: string | undefined,
  ): ServiceFunction {
    const environment: Record<string, string> = {
      SERVICE_NAME: settings.serviceName,
      SERVICE_VERSION: settings.serviceVersion,
      POWERTOOLS_SERVICE_NAME: settings.serviceName,
      POWERTOOLS_METRICS_NAMESPACE: settings.metricsNamespace,
      LOG_LEVEL: settings.logLevel,
      POWERTOOLS_LOG_LEVEL: settings.logLevel,
    };
    const tableAccess = Object.entries(definition.tables) as Array<[TableName, 'read' | 'readWrite']>;
    for (const [tableName] of tableAccess) environment[tables[tableName].envVar] = stateful.tables[tableName].tableName;
    for (const queueName of [...definition.sendsTo, ...(definition.receivesFrom ?? [])]) {
      environment[queues[queueName].envVar] = stateful.queues[queueName].queueUrl;
    }
    for (const queueName of definition.deadLettersOf ?? []) environment[deadLetterEnvVarOf(queueName)] = stateful.deadLetterQueues[queueName].queueUrl;
    if (definition.tokenKey) environment.TOKEN_KMS_KEY_ID = stateful.tokenKey.keyArn;
    if (definition.callsUpstream) {
      environment.GRAPH_API_BASE_URL = settings.upstream.baseUrl;
      environment.GRAPH_API_VERSION = settings.upstream.version;
      environment.UPSTREAM_TIMEOUT_MS = String(settings.upstream.timeoutMs);
    }

    const fn = new ServiceFunction(this, `${pascal(name)}Function`, {
      name,
      definition,
      functionName: physicalFunctionName(this.stackName, name),
      environment,
      logLevel: settings.logLevel,
      skipBundling: settings.skipBundling,
      root: entryRoot,
    });
    Tags.of(fn).add('function', name);

    // Least privilege, straight from the definition.
    // The adapters' actions only (grantReadData would add Scan, ConditionCheckItem, DescribeTable and stream reads).
    for (const [tableName, access] of tableAccess) stateful.tables[tableName].grant(fn, ...checkedTableGrant(name, tableName, access));
    for (const queueName of definition.sendsTo) stateful.queues[queueName].grantSendMessages(fn);
    for (const queueName of definition.deadLettersOf ?? []) stateful.deadLetterQueues[queueName].grantSendMessages(fn);
    if (definition.tokenKey === 'decrypt') stateful.tokenKey.grantDecrypt(fn);
    // Exactly the two calls the token cipher makes: grantEncryptDecrypt would add kms:ReEncrypt* and GenerateDataKey*.
    if (definition.tokenKey === 'encryptDecrypt') stateful.tokenKey.grant(fn, 'kms:Encrypt', 'kms:Decrypt');
    return fn;
  }

  /**
   * Scheduled broadcasts (docs/BROADCAST.md "Scheduling"): a schedule group for the one-time
   * schedules the accepting function creates (and deletes on cancel), the role EventBridge
   * Scheduler assumes to invoke broadcast-scheduler, and the sweep rule every minute on the same
   * function. The accepting function may create and delete schedules in that group only and pass
   * that role only.
   */
  private createBroadcastScheduling(settings: PlatformSettings): void {
    const target = this.functions[broadcastScheduler.functionName];
    const group = new scheduler.ScheduleGroup(this, 'BroadcastScheduleGroup', {
      // A fixed name: the accepting function addresses its schedules by group name.
      scheduleGroupName: `${this.stackName}-broadcasts`.slice(0, 64),
    });
    const targetArn = this.formatArn({ service: 'lambda', resource: 'function', resourceName: target.fixedFunctionName, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    const invokeRole = new iam.Role(this, 'BroadcastSchedulerInvokeRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        // Only schedules of this account's group may use it (confused-deputy guard).
        conditions: { StringEquals: { 'aws:SourceAccount': this.account }, ArnEquals: { 'aws:SourceArn': group.scheduleGroupArn } },
      }),
      description: 'Assumed by EventBridge Scheduler to fire scheduled broadcasts (invokes broadcast-scheduler only)',
    });
    invokeRole.addToPolicy(new iam.PolicyStatement({ sid: 'FireScheduledBroadcasts', actions: ['lambda:InvokeFunction'], resources: [targetArn] }));

    for (const [name, definition] of Object.entries(functions) as Array<[FunctionName, FunctionDefinition]>) {
      if (!definition.schedulesFirings) continue;
      const fn = this.functions[name];
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          sid: 'ManageBroadcastSchedules',
          actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
          resources: [this.scheduleArnOf(group.scheduleGroupName)],
        }),
      );
      fn.addToRolePolicy(new iam.PolicyStatement({ sid: 'PassBroadcastSchedulerRole', actions: ['iam:PassRole'], resources: [invokeRole.roleArn] }));
      fn.addEnvironment('BROADCAST_SCHEDULE_GROUP', group.scheduleGroupName);
      fn.addEnvironment('BROADCAST_SCHEDULER_ROLE_ARN', invokeRole.roleArn);
      fn.addEnvironment('BROADCAST_SCHEDULER_TARGET_ARN', targetArn);
      fn.addEnvironment('BROADCAST_SCHEDULE_MIN_LEAD_SECONDS', String(Math.ceil(settings.scheduleMinLeadSeconds)));
    }

    // The sweep: any job still due past its time (a lost or failed trigger) fires within a minute or two.
    new events.Rule(this, 'BroadcastScheduleSweepRule', {
      description: 'Fires scheduled broadcasts whose one-time trigger was missed',
      schedule: events.Schedule.rate(Duration.minutes(broadcastScheduler.sweepIntervalMinutes)),
      targets: [new eventTargets.LambdaFunction(target, { retryAttempts: 2 })],
    });
  }

  private scheduleArnOf(groupName: string): string {
    return this.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${groupName}/*`, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
  }

  /**
   * Issuing keys at run time (generate-key): exactly the registry's three calls. Keys are created
   * only tagged `origin: generate-key`, and the function may delete (its clean-up after a failed
   * plan registration) only keys carrying that tag, so it cannot touch keys an operator issued.
   */
  private allowApiKeyManagement(fn: ServiceFunction, plan: apigateway.UsagePlan): void {
    const apiGatewayArn = (path: string) => `arn:${this.partition}:apigateway:${this.region}::${path}`;
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

  private createBroadcastUsagePlan(keyedSurfaces: SurfaceName[]): apigateway.UsagePlan {
    const plan = new apigateway.UsagePlan(this, 'BroadcastUsagePlan', {
      name: 'broadcast',
      description: 'Broadcast API keys: per-method ceilings from the route manifest, key-wide throttle and daily quota',
      throttle: broadcastPlanThrottle(),
      quota: { limit: broadcastDailyQuota, period: apigateway.Period.DAY },
    });
    for (const surfaceName of keyedSurfaces) {
      const surfaceApi = this.surfaceApis[surfaceName];
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
      plan.addApiStage({ api: surfaceApi.api, stage: surfaceApi.api.deploymentStage, throttle });
    }
    return plan;
  }

  /**
   * API Gateway writes stage logs only with an account-level CloudWatch role (one per region).
   * Retained like CDK's own `cloudWatchRole`: deleting it would break logging of every other API
   * in the region that relies on the same setting.
   */
  private createApiGatewayAccountRole(): apigateway.CfnAccount {
    const role = new iam.Role(this, 'ApiGatewayCloudWatchRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      description: 'Lets API Gateway write execution and access logs (account-level setting)',
      // AWS's managed policy for exactly this purpose; API Gateway names its execution log groups itself.
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    });
    role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    const account = new apigateway.CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: role.roleArn });
    account.applyRemovalPolicy(RemovalPolicy.RETAIN);
    return account;
  }

  /** The upstream HTTP timeout must leave the function time to answer after giving up. */
  private assertUpstreamTimeoutFits(settings: PlatformSettings): void {
    for (const [name, definition] of Object.entries(functions)) {
      if (definition.callsUpstream && settings.upstream.timeoutMs >= definition.timeoutSeconds * 1000) {
        throw new Error(`upstreamTimeoutMs ${settings.upstream.timeoutMs} is not below the ${definition.timeoutSeconds}s timeout of ${name}`);
      }
    }
  }
}

/** A function's actions on a table (`tableGrantOf`); an access its table's adapters cannot use is a definition error. */
function checkedTableGrant(name: FunctionName, table: TableName, access: 'read' | 'readWrite'): string[] {
  const grant = tableGrantOf(name, table);
  if (grant.length === 0) throw new Error(`${name}: ${access} access to table ${table} grants no action its adapters issue`);
  return grant;
}

/** The visibility timeout the queue resource actually has (SQS default 30 s when unset). */
function visibilityTimeoutOf(queue: sqs.IQueue, queueName: QueueName): number {
  const resource = queue.node.defaultChild as sqs.CfnQueue | undefined;
  const value = resource?.visibilityTimeout;
  if (typeof value === 'number') return value;
  if (resource) return 30;
  return queues[queueName].visibilityTimeoutSeconds;
}
