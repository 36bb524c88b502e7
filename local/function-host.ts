/**
 * Runs one function in worker threads, each one a Lambda execution environment: its whole
 * `process.env` is the environment given here, nothing of the host's leaks in. The function's
 * Timeout is enforced as Lambda does: the environment is torn down (the worker terminated), the
 * invocation fails with `Sandbox.Timedout`, and the next invocation starts a fresh environment
 * (cold start).
 *
 * What a worker loads is pluggable: a bundled asset (`bundle`: the deployed harness runs what
 * `cdk synth` produced) or the TypeScript source (`source`: the local runtime runs
 * `functions/<name>/<name>.lambda.ts` through tsx and calls its `createHandler(process.env, …)`).
 *
 * Environments: up to `maxInstances` workers. An invocation goes to an idle worker, else a new one
 * is started while under the limit, else it shares the least busy worker (invocations overlap in
 * one environment, which Lambda never does, but which keeps a 2-core machine from holding one
 * copy of the SDK per concurrent invocation; docs/ARCHITECTURE.md "Isolation"). A timeout ends
 * every invocation of that one worker.
 *
 * `services` are objects of the host's thread the function is handed as collaborators
 * (overrides): the worker gets a stand-in whose methods post the call here and await the answer
 * (arguments and results are structured-cloned, so only plain data and Dates cross).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export class FunctionInvocationError extends Error {
  override name = 'FunctionInvocationError';
  constructor(
    readonly functionName: string,
    readonly errorType: string,
    /** The function's own error message, as Lambda reports it (`errorMessage`: an authorizer's `Unauthorized`). */
    readonly errorMessage: string,
  ) {
    super(`${functionName}: ${errorType}: ${errorMessage}`);
  }
}

/** Plain-data part of a Lambda context; the worker adds the methods. */
export interface ContextFields {
  functionName: string;
  functionVersion: string;
  invokedFunctionArn: string;
  memoryLimitInMB: string;
  awsRequestId: string;
  logGroupName: string;
  logStreamName: string;
  deadline: number;
}

export type FunctionModule =
  /** A bundled asset: Handler `index.handler` → index.mjs / index.js, export `handler`. */
  | { kind: 'bundle'; assetDirectory: string; handler: string }
  /** A TypeScript module exporting `createHandler(env, overrides)`, loaded through tsx. */
  | { kind: 'source'; file: string };

export interface FunctionHostOptions {
  /** Name used in errors. */
  name: string;
  module: FunctionModule;
  /** The function's whole environment. */
  environment: Record<string, string>;
  timeoutSeconds: number;
  memoryMb: number;
  /** The plain fields of one invocation's context. */
  context(requestId: string, deadline: number): ContextFields;
  /** At most this many environments (worker threads). Default 1. */
  maxInstances?: number;
  /** Keep the function's output for `logs()` instead of passing it to this process's stdout/stderr. */
  captureLogs?: boolean;
  /** Each line the function writes (stdout and stderr), instead of passing it through (`npm start`'s log format). */
  onLogLine?: (line: string) => void;
  /** Collaborators living in the host's thread, by override name (e.g. `jobFiringScheduler`). */
  services?: Record<string, object>;
}

/** Event-loop utilisation of one worker since it started (ms), as `worker.performance.eventLoopUtilization()` gives it. */
export interface ThreadUtilization {
  name: string;
  threadId: number;
  active: number;
  idle: number;
}

/** CPU time one thread used since it started (ms; local/thread-cpu.cjs), undefined where the platform cannot say. */
export interface ThreadCpu {
  name: string;
  threadId: number;
  cpuMs?: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

interface Instance {
  worker: Worker;
  pending: Map<string, Pending>;
}

type WorkerMessage =
  | { kind: 'result'; id: string; ok: boolean; result?: unknown; error?: { name: string; message: string } }
  | { kind: 'call'; id: string; service: string; method: string; args: unknown[] };

const workerFile = join(__dirname, 'function-worker.mjs');
const keptLogLines = 200;

export class FunctionHost {
  private readonly instances: Instance[] = [];
  private readonly logLines: string[] = [];
  private stopped = false;

  constructor(readonly options: FunctionHostOptions) {}

  /** The last lines the function wrote (stdout and stderr) when `captureLogs` is on, for failure messages. */
  logs(): string {
    return this.logLines.join('\n');
  }

  /** Starts an environment and loads the module (Lambda's init phase); rejects with the init error. */
  init(): Promise<void> {
    return this.post({ kind: 'init' }, this.options.timeoutSeconds * 1000).then(() => undefined);
  }

  invoke(event: unknown, requestId: string = randomUUID()): Promise<unknown> {
    const timeoutMs = this.options.timeoutSeconds * 1000;
    return this.post({ kind: 'invoke', event, context: this.options.context(requestId, Date.now() + timeoutMs) }, timeoutMs);
  }

  /** Event-loop utilisation of each running environment. */
  utilization(): ThreadUtilization[] {
    return this.instances.map(({ worker }) => ({ name: this.options.name, threadId: worker.threadId, ...worker.performance.eventLoopUtilization() }));
  }

  /** CPU time of each running environment's thread (asked of the worker, so it waits for a busy one). */
  cpu(): Promise<ThreadCpu[]> {
    return Promise.all(
      this.instances.map(async (instance) => {
        const id = randomUUID();
        const cpuMs = await new Promise<unknown>((resolve, reject) => {
          instance.pending.set(id, { resolve, reject });
          instance.worker.postMessage({ kind: 'cpu', id });
        }).catch(() => null);
        return { name: this.options.name, threadId: instance.worker.threadId, cpuMs: typeof cpuMs === 'number' ? cpuMs : undefined };
      }),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.instances].map((instance) => this.teardown(instance, this.error('Stopped', 'the host stopped'))));
  }

  private error(type: string, message: string): FunctionInvocationError {
    return new FunctionInvocationError(this.options.name, type, message);
  }

  private post(message: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.error('Stopped', 'the host stopped'));
    const instance = this.pick();
    const id = randomUUID();
    return new Promise<unknown>((resolve, reject) => {
      const entry: Pending = { resolve, reject };
      entry.timer = setTimeout(() => {
        void this.teardown(instance, this.error('Sandbox.Timedout', `Task timed out after ${this.options.timeoutSeconds}.00 seconds`));
      }, timeoutMs);
      instance.pending.set(id, entry);
      instance.worker.postMessage({ ...message, id });
    });
  }

  private pick(): Instance {
    const idle = this.instances.find((instance) => instance.pending.size === 0);
    if (idle) return idle;
    if (this.instances.length < (this.options.maxInstances ?? 1)) return this.start();
    return this.instances.reduce((least, instance) => (instance.pending.size < least.pending.size ? instance : least));
  }

  private start(): Instance {
    const { module, environment, memoryMb, captureLogs, onLogLine, services } = this.options;
    const piped = (captureLogs ?? false) || onLogLine !== undefined;
    const worker = new Worker(workerFile, {
      workerData: { module, services: Object.fromEntries(Object.entries(services ?? {}).map(([name, service]) => [name, methodsOf(service)])) },
      env: { ...environment },
      stdout: piped,
      stderr: piped,
      resourceLimits: { maxOldGenerationSizeMb: Math.max(128, memoryMb) },
    });
    const instance: Instance = { worker, pending: new Map() };
    if (captureLogs) {
      const keep = (chunk: Buffer): void => {
        for (const line of chunk.toString('utf8').split('\n')) if (line) this.logLines.push(line);
        if (this.logLines.length > keptLogLines) this.logLines.splice(0, this.logLines.length - keptLogLines);
      };
      worker.stdout.on('data', keep);
      worker.stderr.on('data', keep);
    } else if (onLogLine) {
      for (const stream of [worker.stdout, worker.stderr]) linesOf(stream, onLogLine);
    }
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'call') return void this.serve(worker, message);
      const entry = instance.pending.get(message.id);
      if (!entry) return;
      instance.pending.delete(message.id);
      clearTimeout(entry.timer);
      if (message.ok) entry.resolve(message.result);
      else entry.reject(this.error(message.error!.name, message.error!.message));
    });
    worker.on('error', (error) => void this.teardown(instance, this.error('Runtime.ExitError', error.message)));
    worker.on('exit', (code) => void this.teardown(instance, this.error('Runtime.ExitError', `exited with code ${code}`)));
    this.instances.push(instance);
    return instance;
  }

  /** A call the function made on one of the host's services. */
  private async serve(worker: Worker, call: Extract<WorkerMessage, { kind: 'call' }>): Promise<void> {
    const service = this.options.services?.[call.service] as Record<string, (...args: unknown[]) => unknown> | undefined;
    try {
      const result = await service![call.method]!.apply(service, call.args);
      worker.postMessage({ kind: 'reply', id: call.id, ok: true, result });
    } catch (error) {
      worker.postMessage({
        kind: 'reply',
        id: call.id,
        ok: false,
        error: { name: (error as Error)?.name ?? 'Error', message: String((error as Error)?.message ?? error) },
      });
    }
  }

  private async teardown(instance: Instance, reason: Error): Promise<void> {
    const index = this.instances.indexOf(instance);
    if (index < 0) return;
    this.instances.splice(index, 1);
    for (const [id, entry] of instance.pending) {
      clearTimeout(entry.timer);
      entry.reject(reason);
      instance.pending.delete(id);
    }
    await instance.worker.terminate();
  }
}

/** Names of an object's methods, own and inherited (a class instance's live on its prototype). */
function methodsOf(service: object): string[] {
  const names = new Set<string>();
  for (let object: object | null = service; object && object !== Object.prototype; object = Object.getPrototypeOf(object) as object | null) {
    for (const name of Object.getOwnPropertyNames(object)) {
      if (name !== 'constructor' && typeof (service as Record<string, unknown>)[name] === 'function') names.add(name);
    }
  }
  return [...names];
}

/** Calls `onLine` with each whole line of `stream` (a line split across chunks is joined first). */
function linesOf(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line !== '') onLine(line);
  });
  stream.on('end', () => {
    if (rest !== '') onLine(rest);
  });
}
