/**
 * Runs one deployed function: its bundled asset in a worker thread whose whole `process.env` is
 * the environment given here (the template's variables plus what Lambda itself sets). The
 * function's Timeout is enforced as Lambda does: the execution environment is torn down (the
 * worker terminated) and the invocation fails; the next one starts a fresh environment (cold
 * start). Invocations may overlap in one environment (one worker per function keeps the run
 * light on a small machine); a timeout ends all of them.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { localAccount, localRegion } from './cloud-assembly';
import type { DeployedFunction } from './deployed-model';

export class FunctionInvocationError extends Error {
  override name = 'FunctionInvocationError';
  constructor(
    readonly functionName: string,
    readonly errorType: string,
    message: string,
  ) {
    super(`${functionName}: ${errorType}: ${message}`);
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

/** Plain-data part of a Lambda context; the worker adds the methods. */
interface ContextFields {
  functionName: string;
  functionVersion: string;
  invokedFunctionArn: string;
  memoryLimitInMB: string;
  awsRequestId: string;
  logGroupName: string;
  logStreamName: string;
  deadline: number;
}

const workerFile = join(__dirname, 'lambda-worker.mjs');
const keptLogLines = 200;

export class FunctionHost {
  private worker?: Worker;
  private readonly pending = new Map<string, Pending>();
  private readonly logLines: string[] = [];
  private stopped = false;

  constructor(
    readonly fn: DeployedFunction,
    /** The function's whole environment. */
    readonly environment: Record<string, string>,
  ) {}

  /** Lambda's reserved variables, as the service sets them next to the function's own. */
  static lambdaVariables(fn: DeployedFunction): Record<string, string> {
    return {
      AWS_REGION: localRegion,
      AWS_DEFAULT_REGION: localRegion,
      AWS_LAMBDA_FUNCTION_NAME: fn.physicalName,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.physicalName}`,
      LAMBDA_TASK_ROOT: fn.assetDirectory,
      _HANDLER: fn.handler,
      TZ: ':UTC',
      // As Lambda sets them when active tracing is on; segments go to a local port nobody reads.
      AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
      AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:2000',
    };
  }

  /** The last lines the function wrote (stdout and stderr), for failure messages. */
  logs(): string {
    return this.logLines.join('\n');
  }

  /** Starts the environment and loads the module (Lambda's init phase); rejects with the init error. */
  init(): Promise<void> {
    return this.post({ kind: 'init' }, this.fn.timeoutSeconds * 1000).then(() => undefined);
  }

  invoke(event: unknown, requestId: string = randomUUID()): Promise<unknown> {
    const timeoutMs = this.fn.timeoutSeconds * 1000;
    const context: ContextFields = {
      functionName: this.fn.physicalName,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${localRegion}:${localAccount}:function:${this.fn.physicalName}`,
      memoryLimitInMB: String(this.fn.memoryMb),
      awsRequestId: requestId,
      logGroupName: `/aws/lambda/${this.fn.physicalName}`,
      logStreamName: `local/[$LATEST]${requestId.replace(/-/g, '')}`,
      deadline: Date.now() + timeoutMs,
    };
    return this.post({ kind: 'invoke', event, context }, timeoutMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.teardown(new FunctionInvocationError(this.fn.name, 'Stopped', 'the harness stopped'));
  }

  private post(message: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    if (this.stopped) return Promise.reject(new FunctionInvocationError(this.fn.name, 'Stopped', 'the harness stopped'));
    const worker = this.ensureWorker();
    const id = randomUUID();
    return new Promise<unknown>((resolve, reject) => {
      const entry: Pending = { resolve, reject };
      entry.timer = setTimeout(() => {
        void this.teardown(new FunctionInvocationError(this.fn.name, 'Sandbox.Timedout', `Task timed out after ${this.fn.timeoutSeconds}.00 seconds`));
      }, timeoutMs);
      this.pending.set(id, entry);
      worker.postMessage({ ...message, id });
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerFile, {
      workerData: { assetDirectory: this.fn.assetDirectory, handler: this.fn.handler },
      env: { ...this.environment },
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: Math.max(128, this.fn.memoryMb) },
    });
    const keep = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split('\n')) if (line) this.logLines.push(line);
      if (this.logLines.length > keptLogLines) this.logLines.splice(0, this.logLines.length - keptLogLines);
    };
    worker.stdout.on('data', keep);
    worker.stderr.on('data', keep);
    worker.on('message', (message: { id: string; ok: boolean; result?: unknown; error?: { name: string; message: string } }) => {
      const entry = this.pending.get(message.id);
      if (!entry) return;
      this.pending.delete(message.id);
      clearTimeout(entry.timer);
      if (message.ok) entry.resolve(message.result);
      else entry.reject(new FunctionInvocationError(this.fn.name, message.error!.name, message.error!.message));
    });
    worker.on('error', (error) => void this.teardown(new FunctionInvocationError(this.fn.name, 'Runtime.ExitError', error.message)));
    worker.on('exit', (code) => {
      if (this.worker === worker) void this.teardown(new FunctionInvocationError(this.fn.name, 'Runtime.ExitError', `exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private async teardown(reason: Error): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(reason);
      this.pending.delete(id);
    }
    if (worker) await worker.terminate();
  }
}
