/**
 * What every section builder of a function's composition receives: the parsed configuration,
 * the replaceable collaborators, and the function's SDK clients (pooled per process).
 */
import type { Resolver } from '../../shared/adapters/http/safe-http-client';
import type { AppConfig, Environment } from '../../shared/config/app-config';
import type { FunctionName } from '../../runtime-contract/resource-definitions';
import type { WebhookEndpointRegistry } from '../../shared/customer-events/ports';
import type { JobFiringScheduler } from '../../shared/broadcast/ports';
import type { SecretGenerator } from '../../shared/crypto/secret-generator';
import type { TokenCipher } from '../../shared/crypto/token-cipher';
import { tracedClient } from '../../shared/observability/tracer';
import { systemClock, type Clock } from '../../shared/ports/clock';
import { randomIdGenerator, type IdGenerator } from '../../shared/ports/id-generator';
import type { ApiKeyRegistry } from '../../shared/tenancy/api-key-registry';

/** Replaceable collaborators, for tests and deterministic seeding. */
export interface ServiceOverrides {
  clock?: Clock;
  ids?: IdGenerator;
  secrets?: SecretGenerator;
  apiKeyRegistry?: ApiKeyRegistry;
  tokenCipher?: TokenCipher;
  /** Webhook endpoints (customer events): tests' in-memory registry. */
  webhookEndpointRegistry?: WebhookEndpointRegistry;
  /** DNS of webhook deliveries: tests map a name to a private address to see it refused. */
  webhookResolver?: Resolver;
  /** Triggers of scheduled broadcasts: the local runtime's in-process timers instead of EventBridge Scheduler. */
  jobFiringScheduler?: JobFiringScheduler;
}

interface Destroyable {
  destroy(): void;
}

/**
 * SDK clients by their settings, one per process. On Lambda a process runs one function, so
 * this is simply "built once"; the local runtime runs every function in one process, where the
 * functions share the emulators' connections (and tests that inject faults into a client reach
 * every function using it).
 */
const clientPool = new Map<string, Destroyable>();

/**
 * In-memory state every composition of the process shares, by key (the tenancy read cache of a
 * table): on Lambda one function per process, locally every function, so a change any of them
 * makes invalidates what the others cached, as within one Lambda container.
 */
const processState = new Map<string, unknown>();

/** Closes every pooled client and forgets the process's shared state (the local runtime's shutdown, test resets). */
export function destroyPooledClients(): void {
  for (const client of clientPool.values()) client.destroy();
  clientPool.clear();
  processState.clear();
}

/** Which function a composition is for, and its environment (what its metrics are named by). */
export interface CompositionOrigin {
  readonly name: FunctionName;
  readonly environment: Environment;
}

export interface CompositionContext {
  readonly config: AppConfig;
  /** The function composed (absent for the operators' whole-platform services and tests' own contexts). */
  readonly origin?: CompositionOrigin;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly overrides: ServiceOverrides;
  /** The pooled client for these settings, built on first use (and traced, see shared/observability/tracer.ts). */
  client<T extends Destroyable>(key: string, create: () => T): T;
  /** The process's shared in-memory state for this key, built on first use. */
  processShared<T>(key: string, create: () => T): T;
  /** Closes the sockets of every client this composition used. */
  destroy(): void;
}

export function createCompositionContext(config: AppConfig, overrides: ServiceOverrides = {}, origin?: CompositionOrigin): CompositionContext {
  const used = new Set<string>();
  return {
    config,
    ...(origin ? { origin } : {}),
    clock: overrides.clock ?? systemClock,
    ids: overrides.ids ?? randomIdGenerator,
    overrides,
    client<T extends Destroyable>(key: string, create: () => T): T {
      used.add(key);
      let client = clientPool.get(key);
      if (!client) {
        // Every SDK client of a function is built here: X-Ray subsegments for each call on Lambda
        // (where tracing is off, locally and in tests, the tracer is not even loaded).
        client = tracedClient(create(), config.tracingEnabled);
        clientPool.set(key, client);
      }
      return client as T;
    },
    processShared<T>(key: string, create: () => T): T {
      if (!processState.has(key)) processState.set(key, create());
      return processState.get(key) as T;
    },
    destroy() {
      for (const key of used) {
        clientPool.get(key)?.destroy();
        clientPool.delete(key);
      }
      used.clear();
    },
  };
}

/** Builds on first call, then returns the same value: ports are built when a use case first reaches for them. */
export function memoize<T>(create: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = create();
      built = true;
    }
    return value;
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export type PortFactories<T> = { [K in keyof T]: () => T[K] };

/**
 * A dependency object whose every property is built on first read (and then kept): a function's
 * composition lists its ports as `name: xSection(context, …)` and pays only for those a request
 * reaches. Spreading the object reads (builds) every property.
 */
export function lazyPorts<T extends object>(factories: PortFactories<T>): T {
  const ports = {} as T;
  for (const key of Object.keys(factories) as Array<keyof T>) {
    const build = memoize(factories[key]);
    Object.defineProperty(ports, key, { get: build, enumerable: true });
  }
  return ports;
}

/** A value that needs no building, as a factory. */
export const value =
  <T>(built: T): (() => T) =>
  () =>
    built;
