/**
 * The embedded local runtime: emulators, the Cloud API sandbox, the local gateway in front of
 * the very same Lambda handler modules, and an SQS event source feeding the chunk worker.
 *
 * It only produces configuration (environment variables) for the code it runs; nothing in the
 * handlers knows it is local. `external` mode skips the emulators and uses whatever endpoints
 * the environment names (LocalStack, or real AWS when none are named).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { routes } from '../runtime-contract/all-routes';
import { publicPath, serviceRoutes, type EndpointGroup } from '../runtime-contract/route-manifest';
import {
  chunkWorker,
  customerEventsDispatcher,
  deliveryEvents,
  deadLetterEnvVarOf,
  environmentOf,
  functions,
  tables,
  queues,
  type FunctionName,
  type QueueName,
} from '../runtime-contract/resource-definitions';
import {
  emulatorCredentials,
  emulatorRegion,
  ensureQueues,
  ensureTables,
  startDynalite,
  startFauxqsEmulator,
  type RunningEmulator,
} from './emulators';
import { listeningOn } from './errors';
import { startLocalGateway, type LocalGateway, type ProxyHandler } from './gateway/local-gateway';
import { startSqsEventSource, type SqsBatchHandler, type SqsEventSource } from './sqs-event-source';
import { LocalJobFiringScheduler } from './local-job-firing-scheduler';
import type { Context } from 'aws-lambda';
import { localLambdaContext, localLambdaContextFields } from './lambda-context';
import { createRequire } from 'node:module';
import { FunctionHost, type ThreadCpu, type ThreadUtilization } from './function-host';
import { startEmulatorThread, type EmulatorThread } from './emulator-thread';
import { startCloudApiSandbox, type CloudApiSandbox, type SandboxOptions } from '../sandbox/cloud-api-sandbox';
import { demoSandboxAccounts, generateDemoMetaApp, isDemoSeeded, seedDemoTenant, type DemoTenant } from './demo-seed';
import { getServices, resetServicesForTests, type ServiceOverrides } from '../functions/composition';
import { generateLocalTokenKey } from '../shared/adapters/crypto/local-aes-token-cipher';

export interface LocalRuntimeOptions {
  /** Gateway port; 0 picks a free one. Default: PORT or 3000. */
  port?: number;
  /** Where persistent local state lives (dynalite data, demo credentials, token key). Default `.local`. */
  dataDirectory?: string;
  /** Keep DynamoDB data on disk across restarts. Tests run in memory. */
  persist?: boolean;
  /** `embedded` starts dynalite, fauxqs and the sandbox; `external` uses the endpoints in the environment. */
  backend?: 'embedded' | 'external';
  sandbox?: SandboxOptions;
  /** Sandbox port for `npm start` (stable URL for users); tests use 0. */
  sandboxPort?: number;
  /** Upstream timeout; tests make it short. */
  upstreamTimeoutMs?: number;
  /** Extra environment for the handlers (e.g. a shorter chunk pacing in tests). */
  environment?: Record<string, string>;
  /** Seed the demo tenant on first boot. Default true. */
  seedDemo?: boolean;
  /** Start the SQS event sources feeding the chunk worker, delivery-events and the customer-events dispatcher. Default true; fault tests drive them by hand. */
  startWorkers?: boolean;
  /**
   * The embedded sandbox posts Meta's signed webhooks (statuses, inbound, template changes) to the
   * gateway's Meta webhook endpoint with the demo app secret. Default true (needs the demo tenant);
   * tests may also turn them off at any time with `POST /_sandbox/webhooks {"enabled":false}`.
   */
  sandboxWebhooks?: boolean;
  /** Collaborators handed to the functions that accept them (the customer-events dispatcher: a test's webhook registry, resolver). */
  overrides?: ServiceOverrides;
  /** How often the scheduled-broadcast sweep runs (EventBridge rule: every minute on AWS). Default 1,000 ms. */
  scheduleSweepIntervalMs?: number;
  /**
   * `inline` (default): every handler in this thread with the emulators (fast to boot; the only mode
   * that takes `overrides` other than the scheduler). `threads`: each function in its own worker
   * thread(s) with exactly its environment and its timeout enforced by terminating the worker, and
   * dynalite and fauxqs in a thread of their own (`npm start`, the cores bench). docs/ARCHITECTURE.md "Isolation".
   */
  isolation?: Isolation;
  /** Threads mode: environments (worker threads) per function at most. Default 1 (invocations overlap in it). */
  maxInstancesPerFunction?: number;
}

export type Isolation = 'inline' | 'threads';

/** `inline` or `threads`, from LOCAL_ISOLATION (unset: `fallback`). */
export function isolationFromEnvironment(value: string | undefined, fallback: Isolation): Isolation {
  if (value === undefined || value === '') return fallback;
  if (value === 'inline' || value === 'threads') return value;
  throw new Error(`LOCAL_ISOLATION must be inline or threads, not ${JSON.stringify(value)}`);
}

/** Public path of Meta's webhook endpoint (`/hooks/meta/whatsapp`), from the route manifest. */
export const metaWebhookPath = publicPath(serviceRoutes.find((route) => route.group === 'meta-webhook' && route.method === 'POST')!);

export interface LocalRuntime {
  baseUrl: string;
  /** Where `demo.json` and `runtime.env` were written. */
  dataDirectory: string;
  sandboxUrl: string;
  sandbox?: CloudApiSandbox;
  /** Where Meta (here: the sandbox) posts webhooks: `${baseUrl}/hooks/meta/whatsapp`. */
  webhookUrl: string;
  demo?: DemoTenant & { baseUrl: string; sandboxUrl: string; webhookUrl: string };
  /** The environment the handlers run with (also written to `.local/runtime.env`). */
  environment: Record<string, string>;
  sqs: SQSClient;
  dynamodb: DynamoDBClient;
  /** The stand-in for EventBridge Scheduler: timers firing scheduled broadcasts, and the sweep. */
  scheduler: LocalJobFiringScheduler;
  queueUrls: { outbound: string; outboundDeadLetter?: string; metaEvents: string; metaEventsDeadLetter?: string; customerEvents: string; customerEventsDeadLetter?: string };
  isolation: Isolation;
  /** One function's handler as the runtime invokes it (in `threads` mode: a call into its worker thread). */
  functionHandler(name: FunctionName): Promise<(event: unknown, context?: Context) => Promise<unknown>>;
  /** Event-loop utilisation of every thread of the runtime since it started: this one, the emulators', each function environment's. */
  threadUtilization(): ThreadUtilization[];
  /** CPU time of the same threads (ms since each started; Linux), not inflated by waiting for a core as ELU is on a busy machine. */
  threadCpu(): Promise<ThreadCpu[]>;
  /** Resolves when the chunk-worker, meta-events and customer-events queues are empty and no batch is in flight (delayed retries are not waited for). */
  workersIdle(): Promise<void>;
  stop(): Promise<void>;
}

type FunctionModule = { createHandler(env: Record<string, string>, overrides?: ServiceOverrides): unknown };
type Handler = (event: unknown, context?: Context) => Promise<unknown>;
/** Same module files the Lambdas bundle: `functions/<name>/<name>.lambda.ts`. */
const lambdaModuleFile = (name: FunctionName): string => join(__dirname, '..', 'functions', name, `${name}.lambda.ts`);
const loadLambdaModule = (name: FunctionName): Promise<FunctionModule> =>
  import(`../functions/${name}/${name}.lambda`) as Promise<FunctionModule>;

/** Native require: jest's module system would not load the plain CommonJS helper the workers share. */
const { threadCpuMs } = createRequire(__filename)('./thread-cpu.cjs') as { threadCpuMs(): number | undefined };

/** What a threaded function's environment takes from this process besides the runtime's own variables (Lambda sets PATH, LANG, TZ too). */
const passedThrough = (name: string): boolean => ['PATH', 'LANG', 'TZ', 'HOME'].includes(name) || /^(POWERTOOLS_|AWS_SDK_JS_)/.test(name);

/**
 * Threads mode: one function host per function (local/function-host.ts), started on its first
 * invocation, with exactly `environmentOf(name)` of the runtime's environment. The collaborators
 * that live in this thread (the scheduler's timers) are reached through the host's services.
 */
function threadedHandlers(
  environment: Readonly<Record<string, string>>,
  region: string,
  services: Record<string, object>,
  maxInstances: number,
): { handlerOf: (name: FunctionName) => Promise<Handler>; hostOf: (name: FunctionName) => FunctionHost; hosts: Map<FunctionName, FunctionHost> } {
  const hosts = new Map<FunctionName, FunctionHost>();
  const base = { ...Object.fromEntries(Object.entries(process.env).filter(([name, value]) => passedThrough(name) && value !== undefined)), ...environment } as Record<string, string>;
  const hostOf = (name: FunctionName): FunctionHost => {
    let host = hosts.get(name);
    if (!host) {
      const { memoryMb, timeoutSeconds } = functions[name];
      host = new FunctionHost({
        name,
        module: { kind: 'source', file: lambdaModuleFile(name) },
        environment: environmentOf(name, base),
        timeoutSeconds,
        memoryMb,
        maxInstances,
        services,
        context: (awsRequestId, deadline) => localLambdaContextFields({ functionName: name, region, memoryLimitInMB: String(memoryMb), deadline, awsRequestId }),
      });
      hosts.set(name, host);
    }
    return host;
  };
  return { handlerOf: async (name) => (event, context) => hostOf(name).invoke(event, context?.awsRequestId), hostOf, hosts };
}

/**
 * One handler per function, made with only the environment its resource definition gives it on
 * AWS (tables, queues, token key, Graph API, usage plan) plus the platform's (region, endpoints,
 * tuning): a function reaching for a resource it is not granted fails here as it would there.
 */
function functionHandlers(environment: Readonly<Record<string, string | undefined>>, overrides?: ServiceOverrides): (name: FunctionName) => Promise<Handler> {
  const handlers = new Map<FunctionName, Promise<Handler>>();
  return (name) => {
    if (!handlers.has(name)) handlers.set(name, loadLambdaModule(name).then((module) => module.createHandler(environmentOf(name, environment), overrides) as Handler));
    return handlers.get(name)!;
  };
}

function localTokenKey(dataDirectory: string, persist: boolean): string {
  if (!persist) return generateLocalTokenKey();
  const file = join(dataDirectory, 'token-encryption.key');
  if (!existsSync(file)) writeFileSync(file, generateLocalTokenKey(), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const dataDirectory = resolve(options.dataDirectory ?? '.local');
  const persist = options.persist ?? false;
  const backend = options.backend ?? 'embedded';
  const isolation = options.isolation ?? 'inline';
  const { jobFiringScheduler: _scheduler, ...inProcessOverrides } = options.overrides ?? {};
  if (isolation === 'threads' && Object.keys(inProcessOverrides).length > 0) {
    throw new Error(`overrides (${Object.keys(inProcessOverrides).join(', ')}) are objects of this thread and cannot reach a function's worker thread: use isolation 'inline'`);
  }
  mkdirSync(dataDirectory, { recursive: true });
  const stops: Array<() => Promise<void>> = [];

  try {
    const environment: Record<string, string> = {};
    let dynamoEndpoint = process.env.DYNAMODB_ENDPOINT;
    let sqsEndpoint = process.env.SQS_ENDPOINT;
    let sandbox: CloudApiSandbox | undefined;
    let emulatorThread: EmulatorThread | undefined;

    if (backend === 'embedded') {
      const dynamoDataDirectory = persist ? join(dataDirectory, 'dynamodb') : undefined;
      if (isolation === 'threads') {
        emulatorThread = await startEmulatorThread({ dynamoDataDirectory });
        stops.push(emulatorThread.stop);
        dynamoEndpoint = emulatorThread.dynamoEndpoint;
        sqsEndpoint = emulatorThread.sqsEndpoint;
      } else {
        const dynalite: RunningEmulator = await startDynalite({ dataDirectory: dynamoDataDirectory });
        stops.push(dynalite.stop);
        const fauxqs = await startFauxqsEmulator({});
        stops.push(fauxqs.stop);
        dynamoEndpoint = dynalite.endpoint;
        sqsEndpoint = fauxqs.endpoint;
      }
      Object.assign(environment, {
        AWS_REGION: emulatorRegion,
        AWS_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
        DYNAMODB_ENDPOINT: dynamoEndpoint,
        SQS_ENDPOINT: sqsEndpoint,
        LOCAL_TOKEN_KEY: localTokenKey(dataDirectory, persist),
      });
      const sandboxPort = options.sandboxPort ?? 0;
      sandbox = await listeningOn(sandboxPort, 'SANDBOX_PORT', 'the Cloud API sandbox', () => startCloudApiSandbox({ port: sandboxPort, ...options.sandbox }));
      stops.push(() => sandbox!.close());
      environment.GRAPH_API_BASE_URL = sandbox.url;
    }

    const region = environment.AWS_REGION ?? process.env.AWS_REGION ?? emulatorRegion;
    const clientSettings = backend === 'embedded' ? { region, credentials: emulatorCredentials } : { region };
    const dynamodb = new DynamoDBClient({ ...clientSettings, endpoint: dynamoEndpoint });
    const sqs = new SQSClient({ ...clientSettings, endpoint: sqsEndpoint });
    stops.push(async () => {
      dynamodb.destroy();
      sqs.destroy();
    });

    if (backend === 'embedded' || process.env.LOCAL_CREATE_RESOURCES === '1') {
      const tableNames = await ensureTables(dynamodb);
      for (const table of Object.values(tables)) environment[table.envVar] = tableNames[table.name];
      const queueUrls = await ensureQueues(sqs);
      for (const queue of Object.values(queues)) environment[queue.envVar] = queueUrls[queue.name].url;
      // Dead-letter queues: replays (npm run admin -- replay-meta-events) and the customer-events dispatcher's give-ups.
      for (const name of Object.keys(queues) as QueueName[]) environment[deadLetterEnvVarOf(name)] = queueUrls[name].deadLetterUrl;
    }
    // Local mode: webhook receivers on this machine (plain http, loopback) can be tried. Never set on AWS.
    environment.CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK = '1';
    // Metrics (EMF) are counted and dropped locally instead of printed (POWERTOOLS_METRICS_DISABLED=false
    // prints them). Tracing needs no switch: Powertools enables it only inside Lambda.
    environment.POWERTOOLS_METRICS_DISABLED = process.env.POWERTOOLS_METRICS_DISABLED ?? 'true';
    if (options.upstreamTimeoutMs) environment.UPSTREAM_TIMEOUT_MS = String(options.upstreamTimeoutMs);
    // The local sweep runs every second: a job whose timer was missed fires within about 2 s of its time.
    environment.BROADCAST_SCHEDULE_SWEEP_GRACE_SECONDS = '1';
    Object.assign(environment, options.environment);

    // The handlers read configuration from the environment, exactly as in Lambda. What was there
    // before comes back on stop, so a later runtime in the same process starts from a clean slate.
    const previousEnvironment = Object.fromEntries(Object.keys(environment).map((name) => [name, process.env[name]]));
    stops.push(async () => {
      for (const [name, value] of Object.entries(previousEnvironment)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
    // The operators' side (demo seed, key checks, tests' getServices()) sees the whole environment;
    // each function sees only its own.
    Object.assign(process.env, environment);
    resetServicesForTests();
    stops.push(async () => resetServicesForTests());
    const services = getServices();
    // Scheduled broadcasts: timers in this process invoke the same function EventBridge Scheduler invokes on AWS.
    let lastFiringError: string | undefined;
    const scheduler = new LocalJobFiringScheduler(
      async (event) => {
        const { memoryMb, timeoutSeconds } = functions['broadcast-scheduler'];
        const context = localLambdaContext({ functionName: 'broadcast-scheduler', region, memoryLimitInMB: String(memoryMb), deadline: Date.now() + timeoutSeconds * 1000 });
        return (await handlerOf('broadcast-scheduler'))(event, context);
      },
      (error) => {
        // The sweep runs every second: the same fault is said once, not every second.
        const message = error instanceof Error ? error.message : String(error);
        if (message !== lastFiringError) console.error('Scheduled broadcast firing failed (the sweep retries it):', message);
        lastFiringError = message;
      },
    );
    stops.push(async () => scheduler.stop());
    let handlerOf: (name: FunctionName) => Promise<Handler>;
    let hosts = new Map<FunctionName, FunctionHost>();
    let hostOf: ((name: FunctionName) => FunctionHost) | undefined;
    if (isolation === 'threads') {
      ({ handlerOf, hostOf, hosts } = threadedHandlers(environment, region, { jobFiringScheduler: scheduler }, options.maxInstancesPerFunction ?? 1));
      // After the gateway and the event sources (stops run in reverse), before the emulators.
      stops.push(async () => {
        scheduler.stop(); // no sweep into a stopped host
        await Promise.all([...hosts.values()].map((host) => host.stop()));
      });
    } else {
      handlerOf = functionHandlers({ ...process.env }, { ...options.overrides, jobFiringScheduler: scheduler });
    }

    let demo: DemoTenant | undefined;
    if (sandbox) for (const account of demoSandboxAccounts()) sandbox.registerBusinessAccount(account);
    const demoFile = join(dataDirectory, 'demo.json');
    if (options.seedDemo ?? true) {
      if (persist && existsSync(demoFile) && (await isDemoSeeded(services))) {
        const saved = JSON.parse(readFileSync(demoFile, 'utf8')) as Partial<DemoTenant> & Omit<DemoTenant, 'metaAppSecret' | 'webhookVerifyToken'>;
        // A demo.json written before the Meta app settings existed gets them now, once.
        demo = saved.metaAppSecret && saved.webhookVerifyToken ? (saved as DemoTenant) : { ...saved, ...generateDemoMetaApp() };
      } else {
        demo = await seedDemoTenant(services, sandbox ?? { registerBusinessAccount: () => undefined });
      }
      // On every boot, so a demo.json from before the Meta app settings existed is provisioned too.
      await services.metaApp.configure({ appSecret: demo.metaAppSecret, verifyToken: demo.webhookVerifyToken });
    }

    const gatewayPort = options.port ?? Number(process.env.PORT ?? 3000);
    const gateway: LocalGateway = await listeningOn(gatewayPort, 'PORT', 'the local gateway', () =>
      startLocalGateway({
        port: gatewayPort,
        routes,
        loadHandler: async (group: EndpointGroup) => (await handlerOf(group)) as unknown as ProxyHandler,
        isApiKeyEnabled: (apiKey) => services.tenancy.isBroadcastApiKeyEnabled(apiKey),
      }),
    );
    stops.push(() => gateway.close());

    const webhookUrl = `${gateway.url}${metaWebhookPath}`;
    if (sandbox && demo && (options.sandboxWebhooks ?? true)) {
      sandbox.webhooks.configure({ url: webhookUrl, appSecret: demo.metaAppSecret });
      // Before the gateway closes, so nothing is posted to it while it goes away.
      stops.push(async () => void sandbox!.webhooks.configure({ enabled: false }));
    }

    const outboundUrl = process.env[queues.outboundMessages.envVar] ?? '';
    let workers: SqsEventSource | undefined;
    if (options.startWorkers ?? true) {
      const workerHandler = (await handlerOf('chunk-worker')) as unknown as SqsBatchHandler;
      workers = startSqsEventSource({
        sqs,
        queueUrl: outboundUrl,
        queueArn: `arn:aws:sqs:${region}:000000000000:${outboundUrl.split('/').pop()}`,
        handler: workerHandler,
        batchSize: chunkWorker.batchSize,
        maxConcurrency: chunkWorker.maxConcurrency,
        functionTimeoutSeconds: functions['chunk-worker'].timeoutSeconds,
        reportBatchItemFailures: true,
      });
      // Stop polling before the emulators go away.
      stops.push(() => workers!.stop());
    }
    const metaEventsUrl = process.env[queues.metaEvents.envVar] ?? '';
    let deliveryWorkers: SqsEventSource | undefined;
    if (options.startWorkers ?? true) {
      deliveryWorkers = startSqsEventSource({
        sqs,
        queueUrl: metaEventsUrl,
        queueArn: `arn:aws:sqs:${region}:000000000000:${metaEventsUrl.split('/').pop()}`,
        handler: (await handlerOf('delivery-events')) as unknown as SqsBatchHandler,
        batchSize: deliveryEvents.batchSize,
        // One process and one dynalite serve every function here: two batches at a time (each applying
        // its events concurrently) keep the emulator inside the clients' 2 s request timeout.
        maxConcurrency: Math.min(2, deliveryEvents.maxConcurrency),
        functionTimeoutSeconds: functions['delivery-events'].timeoutSeconds,
        reportBatchItemFailures: true,
      });
      stops.push(() => deliveryWorkers!.stop());
    }
    const customerEventsUrl = process.env[queues.customerEvents.envVar] ?? '';
    let dispatchers: SqsEventSource | undefined;
    if (options.startWorkers ?? true) {
      dispatchers = startSqsEventSource({
        sqs,
        queueUrl: customerEventsUrl,
        queueArn: `arn:aws:sqs:${region}:000000000000:${customerEventsUrl.split('/').pop()}`,
        handler: (await handlerOf('customer-events')) as unknown as SqsBatchHandler,
        batchSize: customerEventsDispatcher.batchSize,
        maxConcurrency: customerEventsDispatcher.maxConcurrency,
        functionTimeoutSeconds: functions['customer-events'].timeoutSeconds,
        reportBatchItemFailures: true,
      });
      stops.push(() => dispatchers!.stop());
    }

    if (options.startWorkers ?? true) {
      // Cold starts of the queue consumers in the background (about a second each through tsx):
      // boot does not wait, and the first chunk does not pay them. A failing init fails its first invocation.
      for (const name of ['chunk-worker', 'delivery-events', 'customer-events', 'broadcast-scheduler'] as const) void hostOf?.(name).init().catch(() => undefined);
      scheduler.startSweep(options.scheduleSweepIntervalMs ?? 1_000);
    }

    const sandboxUrl = sandbox?.url ?? process.env.GRAPH_API_BASE_URL ?? '';
    const demoWithUrls = demo ? { ...demo, baseUrl: gateway.url, sandboxUrl, webhookUrl } : undefined;
    if (demoWithUrls) writeFileSync(demoFile, `${JSON.stringify(demoWithUrls, null, 2)}\n`, { mode: 0o600 });
    writeFileSync(
      join(dataDirectory, 'runtime.env'),
      Object.entries(environment)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n') + '\n',
      { mode: 0o600 },
    );

    return {
      baseUrl: gateway.url,
      dataDirectory,
      sandboxUrl,
      sandbox,
      webhookUrl,
      demo: demoWithUrls,
      environment,
      sqs,
      dynamodb,
      scheduler,
      isolation,
      functionHandler: handlerOf,
      threadUtilization: () => [
        { name: 'main (gateway, event sources, sandbox)', threadId: 0, ...performance.eventLoopUtilization() },
        ...(emulatorThread?.utilization() ?? []),
        ...[...hosts.values()].flatMap((host) => host.utilization()),
      ],
      threadCpu: async () => [
        { name: 'main (gateway, event sources, sandbox)', threadId: 0, cpuMs: threadCpuMs() },
        ...((await emulatorThread?.cpu()) ?? []),
        ...(await Promise.all([...hosts.values()].map((host) => host.cpu()))).flat(),
      ],
      queueUrls: {
        outbound: outboundUrl,
        outboundDeadLetter: environment[deadLetterEnvVarOf('outboundMessages')],
        metaEvents: metaEventsUrl,
        metaEventsDeadLetter: environment[deadLetterEnvVarOf('metaEvents')],
        customerEvents: customerEventsUrl,
        customerEventsDeadLetter: environment[deadLetterEnvVarOf('customerEvents')],
      },
      workersIdle: async () => {
        // Events of a send follow its chunk; customer events follow applied events: settle all three.
        await Promise.all([workers?.idle(), deliveryWorkers?.idle()]);
        await Promise.all([workers?.idle(), deliveryWorkers?.idle(), dispatchers?.idle()]);
      },
      stop: async () => {
        for (const stop of stops.reverse()) await stop().catch(() => undefined);
        stops.length = 0;
      },
    };
  } catch (error) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    throw error;
  }
}
