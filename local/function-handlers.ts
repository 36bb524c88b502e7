/**
 * How the local runtime runs its functions: `inline`, every handler in this thread, or `threads`,
 * each function in worker threads of its own (local/function-host.ts). Either way a function is
 * made with only the environment its resource definition gives it on AWS (tables, queues, token
 * key, Graph API, usage plan) plus the platform's (region, endpoints, tuning): a function reaching
 * for a resource it is not granted fails here as it would there.
 */
import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { broadcastScheduler, environmentOf, functions, type FunctionName } from '../runtime-contract/resource-definitions';
import type { ServiceOverrides } from '../functions/composition';
import type { Clock } from '../shared/ports/clock';
import { FunctionHost } from './function-host';
import { localLambdaContext, localLambdaContextFields } from './lambda-context';
import { LocalJobFiringScheduler } from './local-job-firing-scheduler';

export type Handler = (event: unknown, context?: Context) => Promise<unknown>;

export interface FunctionHandlers {
  /** One function's handler as the runtime invokes it (in `threads` mode: a call into its worker thread). */
  handlerOf(name: FunctionName): Promise<Handler>;
  /** Threads mode: the function's host, started on its first use; undefined inline. */
  hostOf?: (name: FunctionName) => FunctionHost;
  /** The hosts started so far (none inline). */
  hosts: ReadonlyMap<FunctionName, FunctionHost>;
  /** Stops every host. */
  stop(): Promise<void>;
}

type FunctionModule = { createHandler(env: Record<string, string>, overrides?: ServiceOverrides): unknown };
/** Same module files the Lambdas bundle: `functions/<name>/<name>.lambda.ts`. */
const lambdaModuleFile = (name: FunctionName): string => join(__dirname, '..', 'functions', name, `${name}.lambda.ts`);
const loadLambdaModule = (name: FunctionName): Promise<FunctionModule> => import(`../functions/${name}/${name}.lambda`) as Promise<FunctionModule>;

/** What a threaded function's environment takes from this process besides the runtime's own variables (Lambda sets PATH, LANG, TZ too). */
const passedThrough = (name: string): boolean => ['PATH', 'LANG', 'TZ', 'HOME'].includes(name) || /^(POWERTOOLS_|AWS_SDK_JS_)/.test(name);

/**
 * Threads mode: one function host per function, started on its first invocation, with exactly
 * `environmentOf(name)` of the runtime's environment. The collaborators that live in this thread
 * (the scheduler's timers) are reached through the host's `services`.
 *
 * @example
 * const handlers = threadedHandlers(environment, 'us-east-1', { jobFiringScheduler: scheduler }, 1);
 * await (await handlers.handlerOf('health'))(event);
 */
export function threadedHandlers(
  environment: Readonly<Record<string, string>>,
  region: string,
  services: Record<string, object>,
  maxInstances: number,
  onLogLine?: (functionName: FunctionName, line: string) => void,
): FunctionHandlers {
  const hosts = new Map<FunctionName, FunctionHost>();
  const base = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name, value]) => passedThrough(name) && value !== undefined)),
    ...environment,
  } as Record<string, string>;
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
        ...(onLogLine ? { onLogLine: (line: string) => onLogLine(name, line) } : {}),
        context: (awsRequestId, deadline) =>
          localLambdaContextFields({ functionName: name, region, memoryLimitInMB: String(memoryMb), deadline, awsRequestId }),
      });
      hosts.set(name, host);
    }
    return host;
  };
  return {
    handlerOf: async (name) => (event, context) => hostOf(name).invoke(event, context?.awsRequestId),
    hostOf,
    hosts,
    stop: async () => void (await Promise.all([...hosts.values()].map((host) => host.stop()))),
  };
}

/**
 * Inline mode: each function's `createHandler` called once, in this thread, with its own environment.
 *
 * @example
 * const handlers = inlineHandlers({ ...process.env }, { jobFiringScheduler: scheduler });
 */
export function inlineHandlers(environment: Readonly<Record<string, string | undefined>>, overrides?: ServiceOverrides): FunctionHandlers {
  const handlers = new Map<FunctionName, Promise<Handler>>();
  return {
    handlerOf: (name) => {
      if (!handlers.has(name))
        handlers.set(
          name,
          loadLambdaModule(name).then((module) => module.createHandler(environmentOf(name, environment), overrides) as Handler),
        );
      return handlers.get(name)!;
    },
    hosts: new Map(),
    stop: async () => undefined,
  };
}

export interface LocalFunctions {
  /** The stand-in for EventBridge Scheduler, invoking broadcast-scheduler like every other function. */
  scheduler: LocalJobFiringScheduler;
  handlers: FunctionHandlers;
  /** Stops the scheduler's timers (no sweep into a stopped host), then the hosts. */
  stop(): Promise<void>;
}

/**
 * The scheduler's timers and the functions' handlers, inline or in worker threads. Inline, the
 * functions get `overrides` and the scheduler; in threads, the scheduler is a service of the host.
 *
 * @example
 * const { scheduler, handlers, stop } = startLocalFunctions({ isolation: 'inline', environment, region: 'us-east-1', maxInstancesPerFunction: 1 });
 */
export function startLocalFunctions(options: {
  isolation: 'inline' | 'threads';
  environment: Readonly<Record<string, string>>;
  region: string;
  overrides?: ServiceOverrides;
  maxInstancesPerFunction: number;
  /** Threads only: each line a function writes, instead of passing it through. */
  onLogLine?: (functionName: FunctionName, line: string) => void;
}): LocalFunctions {
  // The scheduler's callback runs only after `handlers` is initialised (it fires jobs later).
  const scheduler = localScheduler(() => handlers.handlerOf(broadcastScheduler.functionName), options.region, options.overrides?.clock);
  const handlers: FunctionHandlers =
    options.isolation === 'threads'
      ? threadedHandlers(options.environment, options.region, { jobFiringScheduler: scheduler }, options.maxInstancesPerFunction, options.onLogLine)
      : inlineHandlers({ ...process.env }, { ...options.overrides, jobFiringScheduler: scheduler });
  const started = handlers;
  return {
    scheduler,
    handlers: started,
    stop: async () => {
      await scheduler.stop();
      await started.stop();
    },
  };
}

/** Scheduled broadcasts: timers in this process invoke the same function EventBridge Scheduler invokes on AWS. */
function localScheduler(handler: () => Promise<Handler>, region: string, clock?: Clock): LocalJobFiringScheduler {
  let lastFiringError: string | undefined;
  return new LocalJobFiringScheduler(
    async (event) => {
      const { memoryMb, timeoutSeconds } = functions[broadcastScheduler.functionName];
      const context = localLambdaContext({
        functionName: broadcastScheduler.functionName,
        region,
        memoryLimitInMB: String(memoryMb),
        deadline: Date.now() + timeoutSeconds * 1000,
      });
      return (await handler())(event, context);
    },
    (error) => {
      // The sweep runs every second: the same fault is said once, not every second.
      const message = error instanceof Error ? error.message : String(error);
      if (message !== lastFiringError) console.error('Scheduled broadcast firing failed (the sweep retries it):', message);
      lastFiringError = message;
    },
    clock ? () => clock.now().getTime() : undefined,
  );
}
