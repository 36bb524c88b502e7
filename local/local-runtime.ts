/**
 * The embedded local runtime: emulators, the Cloud API sandbox, the local gateway in front of
 * the very same Lambda handler modules, and one SQS event source per queue consumer.
 *
 * It only produces configuration (environment variables) for the code it runs; nothing in the
 * handlers knows it is local. `external` mode skips the emulators and uses whatever endpoints
 * the environment names (LocalStack, or real AWS when none are named). The parts: backends
 * (runtime-backends.ts), function hosting (function-handlers.ts), the gateway (gateway/), the
 * event sources (local-event-sources.ts), the demo tenant (demo-boot.ts).
 */
import { gatewayPortFor, localClickBaseUrl } from './click-base-url';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { createRequire } from 'node:module';
import { routes } from '../runtime-contract/all-routes';
import { publicPath, serviceRoutes, type EndpointGroup } from '../runtime-contract/route-manifest';
import { eventSources } from '../runtime-contract/event-sources';
import { broadcastScheduler, deadLetterEnvVarOf, queues, requestAuthorizer, type FunctionName } from '../runtime-contract/resource-definitions';
import { listeningOn } from './errors';
import { startLocalGateway, type LocalGateway, type ProxyHandler } from './gateway/local-gateway';
import type { AuthorizerHandler } from './gateway/request-authorizer';
import type { LocalJobFiringScheduler } from './local-job-firing-scheduler';
import type { ThreadCpu, ThreadUtilization } from './function-host';
import type { CloudApiSandbox, SandboxOptions } from '../sandbox/cloud-api-sandbox';
import type { DemoTenant } from './demo-seed';
import { getServices, type ServiceOverrides, type Services } from '../functions/composition';
import { startBackends, type Backends, type Stops } from './runtime-backends';
import { startLocalFunctions, type FunctionHandlers } from './function-handlers';
import { buildBrowserAssets } from './browser-assets-build';
import { startLocalEventSources, type LocalEventSources } from './local-event-sources';
import { bootDemoTenant, writeRuntimeFiles } from './demo-boot';
import type { DemoSignIn } from './demo-people';
import type { LocalIdentityProvider } from './identity-provider/identity-provider';
import { startRuntimeIdentity } from './identity-provider/runtime-identity';
import { installEnvironment, runtimeEnvironment } from './runtime-environment';

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
  /** Port of the local OpenID Connect provider (docs/PEOPLE.md "Locally"); `npm start` uses IDENTITY_PORT or 4020, default 0 (any free port). */
  identityPort?: number;
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
  /** Threads only: each line a function writes (`npm start` formats them: local/local-log-lines.ts); absent, passed through. */
  onLogLine?: (functionName: string, line: string) => void;
  /** Each request the gateway answered (`npm start`'s one line per request). */
  onRequest?: (info: { group: string; operation: string; statusCode: number; durationMs: number }) => void;
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
  demo?: DemoTenant & DemoSignIn & { baseUrl: string; sandboxUrl: string; webhookUrl: string };
  /** The local OpenID Connect provider people sign in with (its issuer, admin endpoint and accounts). */
  identity: LocalIdentityProvider;
  /** The environment the handlers run with (also written to `.local/runtime.env`). */
  environment: Record<string, string>;
  sqs: SQSClient;
  dynamodb: DynamoDBClient;
  /** The stand-in for EventBridge Scheduler: timers firing scheduled broadcasts, and the sweep. */
  scheduler: LocalJobFiringScheduler;
  queueUrls: {
    outbound: string;
    outboundDeadLetter?: string;
    singleMessages: string;
    singleMessagesDeadLetter?: string;
    metaEvents: string;
    metaEventsDeadLetter?: string;
    customerEvents: string;
    customerEventsDeadLetter?: string;
  };
  isolation: Isolation;
  /** One function's handler as the runtime invokes it (in `threads` mode: a call into its worker thread). */
  functionHandler(name: FunctionName): Promise<(event: unknown, context?: Context) => Promise<unknown>>;
  /** Event-loop utilisation of every thread of the runtime since it started: this one, the emulators', each function environment's. */
  threadUtilization(): ThreadUtilization[];
  /** CPU time of the same threads (ms since each started; Linux), not inflated by waiting for a core as ELU is on a busy machine. */
  threadCpu(): Promise<ThreadCpu[]>;
  /** Resolves when the queues of every consumer (the lanes, meta-events, customer-events, ...) are empty and no batch is in flight (delayed retries are not waited for). */
  workersIdle(): Promise<void>;
  stop(): Promise<void>;
}

/** Native require: jest's module system would not load the plain CommonJS helper the workers share. */
const { threadCpuMs } = createRequire(__filename)('./thread-cpu.cjs') as { threadCpuMs(): number | undefined };

const MAIN_THREAD = 'main (gateway, event sources, sandbox)';

/**
 * Starts the runtime; on a failure, whatever had started is stopped again.
 *
 * @example
 * const runtime = await startLocalRuntime({ port: 0, persist: false });
 * await fetch(`${runtime.baseUrl}/prod/health`);
 * await runtime.stop();
 */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const dataDirectory = resolve(options.dataDirectory ?? '.local');
  const isolation = options.isolation ?? 'inline';
  const { jobFiringScheduler: _scheduler, ...inProcessOverrides } = options.overrides ?? {};
  if (isolation === 'threads' && Object.keys(inProcessOverrides).length > 0) {
    throw new Error(
      `overrides (${Object.keys(inProcessOverrides).join(', ')}) are objects of this thread and cannot reach a function's worker thread: use isolation 'inline'`,
    );
  }
  mkdirSync(dataDirectory, { recursive: true });
  const stops: Stops = [];
  try {
    return await boot(options, { dataDirectory, isolation, persist: options.persist ?? false }, stops);
  } catch (error) {
    await runStops(stops);
    throw error;
  }
}

/** Runs the clean-ups in reverse order of start, each despite the failure of another. */
async function runStops(stops: Stops): Promise<void> {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  stops.length = 0;
}

async function boot(
  options: LocalRuntimeOptions,
  settings: { dataDirectory: string; isolation: Isolation; persist: boolean },
  stops: Stops,
): Promise<LocalRuntime> {
  const { dataDirectory, isolation, persist } = settings;
  // Built while the emulators start; the gateway waits for it (the console's files, docs/CONSOLE.md).
  const browserAssets = buildBrowserAssets();
  browserAssets.catch(() => undefined);
  const identityStarting = startRuntimeIdentity({ port: options.identityPort ?? 0, dataDirectory, persist }, stops);
  const backends = await startBackends(
    { backend: options.backend ?? 'embedded', isolation, dataDirectory, persist, sandbox: options.sandbox, sandboxPort: options.sandboxPort },
    stops,
  );
  const identity = await identityStarting;
  // Known before the functions start: CLICK_BASE_URL names the gateway (local/click-base-url.ts).
  const gatewayPort = await gatewayPortFor(options.port ?? Number(process.env.PORT ?? 3000));
  const environment = runtimeEnvironment({ ...backends.environment, ...identity.environment, CLICK_BASE_URL: localClickBaseUrl(gatewayPort) }, options);
  installEnvironment(environment, stops);
  const services = getServices();
  const {
    scheduler,
    handlers,
    stop: stopFunctions,
  } = startLocalFunctions({
    isolation,
    environment,
    region: backends.region,
    overrides: options.overrides,
    maxInstancesPerFunction: options.maxInstancesPerFunction ?? 1,
    ...(options.onLogLine ? { onLogLine: options.onLogLine } : {}),
  });
  // After the gateway and the event sources (stops run in reverse), before the emulators.
  stops.push(stopFunctions);
  const demo = await bootDemoTenant({ services, sandbox: backends.sandbox, dataDirectory, persist, seed: options.seedDemo ?? true, identity });
  await browserAssets;
  const gateway = await startGateway(
    { ...options, port: gatewayPort },
    handlers,
    services,
    stops,
    backends.sandbox?.url ?? process.env.GRAPH_API_BASE_URL ?? '',
  );
  await identity.serveConsole(gateway.url);
  const webhookUrl = `${gateway.url}${metaWebhookPath}`;
  const { sandbox } = backends;
  if (sandbox && demo && (options.sandboxWebhooks ?? true)) {
    sandbox.webhooks.configure({ url: webhookUrl, appSecret: demo.metaAppSecret });
    // Before the gateway closes, so nothing is posted to it while it goes away.
    stops.push(async () => void sandbox.webhooks.configure({ enabled: false }));
  }
  const workers = (options.startWorkers ?? true) ? await startWorkers(options, backends, handlers, scheduler, stops) : undefined;
  const sandboxUrl = sandbox?.url ?? process.env.GRAPH_API_BASE_URL ?? '';
  const demoWithUrls = demo ? { ...demo, baseUrl: gateway.url, sandboxUrl, webhookUrl, clickBaseUrl: environment.CLICK_BASE_URL } : undefined;
  writeRuntimeFiles(dataDirectory, demoWithUrls, environment);
  return {
    baseUrl: gateway.url,
    dataDirectory,
    sandboxUrl,
    sandbox,
    webhookUrl,
    demo: demoWithUrls,
    identity,
    environment,
    sqs: backends.sqs,
    dynamodb: backends.dynamodb,
    scheduler,
    isolation,
    functionHandler: handlers.handlerOf,
    ...threadMeasures(backends, handlers),
    queueUrls: queueUrlsOf(environment),
    workersIdle: async () => workers?.idle(),
    stop: () => runStops(stops),
  };
}

/**
 * The SQS event sources feeding the queue consumers and the scheduled-broadcast sweep, with the
 * consumers' cold starts begun in the background.
 */
async function startWorkers(
  options: LocalRuntimeOptions,
  backends: Backends,
  handlers: FunctionHandlers,
  scheduler: LocalJobFiringScheduler,
  stops: Stops,
): Promise<LocalEventSources> {
  const workers = await startLocalEventSources({ sqs: backends.sqs, region: backends.region, environment: process.env, handlerOf: handlers.handlerOf });
  stops.push(() => workers.stop()); // polling stops before the emulators go away
  // Cold starts of the queue consumers in the background (about a second each through tsx):
  // boot does not wait, and the first chunk does not pay them. A failing init fails its first invocation.
  for (const name of [...eventSources.map((source) => source.functionName), broadcastScheduler.functionName])
    void handlers
      .hostOf?.(name)
      .init()
      .catch(() => undefined);
  scheduler.startSweep(options.scheduleSweepIntervalMs ?? 1_000);
  return workers;
}

/** What `GET /` lists beside the surfaces: the Cloud API sandbox and its inspection endpoint. */
const indexLinksOf = (sandboxUrl: string): Record<string, string> =>
  sandboxUrl === '' ? {} : { sandbox: sandboxUrl, sandboxMessages: `${sandboxUrl}/_sandbox/messages?limit=20` };

async function startGateway(
  options: LocalRuntimeOptions,
  handlers: FunctionHandlers,
  services: Services,
  stops: Stops,
  sandboxUrl: string,
): Promise<LocalGateway> {
  const gatewayPort = options.port ?? Number(process.env.PORT ?? 3000);
  const gateway = await listeningOn(gatewayPort, 'PORT', 'the local gateway', () =>
    startLocalGateway({
      port: gatewayPort,
      routes,
      loadHandler: async (group: EndpointGroup) => (await handlers.handlerOf(group)) as unknown as ProxyHandler,
      isApiKeyEnabled: (apiKey) => services.tenancy.isBroadcastApiKeyEnabled(apiKey),
      // Invoked like any function (inline or in its worker thread), for keyed methods without x-api-key.
      loadRequestAuthorizer: async () => (await handlers.handlerOf(requestAuthorizer.functionName)) as unknown as AuthorizerHandler,
      indexLinks: () => indexLinksOf(sandboxUrl),
      ...(options.onRequest ? { onInvocation: options.onRequest } : {}),
    }),
  );
  stops.push(() => gateway.close());
  return gateway;
}

function threadMeasures(backends: Backends, handlers: FunctionHandlers): Pick<LocalRuntime, 'threadUtilization' | 'threadCpu'> {
  const hosts = () => [...handlers.hosts.values()];
  return {
    threadUtilization: () => [
      { name: MAIN_THREAD, threadId: 0, ...performance.eventLoopUtilization() },
      ...(backends.emulatorThread?.utilization() ?? []),
      ...hosts().flatMap((host) => host.utilization()),
    ],
    threadCpu: async () => [
      { name: MAIN_THREAD, threadId: 0, cpuMs: threadCpuMs() },
      ...((await backends.emulatorThread?.cpu()) ?? []),
      ...(await Promise.all(hosts().map((host) => host.cpu()))).flat(),
    ],
  };
}

function queueUrlsOf(environment: Record<string, string>): LocalRuntime['queueUrls'] {
  return {
    outbound: process.env[queues.outboundMessages.envVar] ?? '',
    outboundDeadLetter: environment[deadLetterEnvVarOf('outboundMessages')],
    singleMessages: process.env[queues.singleMessages.envVar] ?? '',
    singleMessagesDeadLetter: environment[deadLetterEnvVarOf('singleMessages')],
    metaEvents: process.env[queues.metaEvents.envVar] ?? '',
    metaEventsDeadLetter: environment[deadLetterEnvVarOf('metaEvents')],
    customerEvents: process.env[queues.customerEvents.envVar] ?? '',
    customerEventsDeadLetter: environment[deadLetterEnvVarOf('customerEvents')],
  };
}
