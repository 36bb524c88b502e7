// One Lambda execution environment in a worker thread (local/function-host.ts): loads the
// function with the environment the host gives it (the worker's own process.env) and runs the
// invocations the host posts. Plain JavaScript: it runs in Node, outside jest's transform.
//   bundle: the asset named by the function's Handler (`index.handler` → index.mjs or index.js, export `handler`);
//   source: a TypeScript module through tsx's require hook, `createHandler(process.env, services)`.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const { module: spec, services } = workerData;
const { threadCpuMs } = createRequire(import.meta.url)('./thread-cpu.cjs');

// Collaborators living in the host's thread: each method posts the call and awaits the answer.
const calls = new Map();
let nextCall = 0;
const overrides = Object.fromEntries(
  Object.entries(services ?? {}).map(([service, methods]) => [
    service,
    Object.fromEntries(
      methods.map((method) => [
        method,
        (...args) =>
          new Promise((resolve, reject) => {
            const id = (nextCall += 1);
            calls.set(id, { resolve, reject });
            parentPort.postMessage({ kind: 'call', id, service, method, args });
          }),
      ]),
    ),
  ]),
);

async function loadBundle() {
  const { assetDirectory, handler } = spec;
  // Lambda names the code directory in LAMBDA_TASK_ROOT (the docs function reads its bundled renderer files there).
  process.env.LAMBDA_TASK_ROOT = assetDirectory;
  const dot = handler.lastIndexOf('.');
  const moduleName = handler.slice(0, dot);
  const exportName = handler.slice(dot + 1);
  const file = ['.mjs', '.js', '.cjs'].map((extension) => join(assetDirectory, moduleName + extension)).find(existsSync);
  if (!file) throw new Error(`Runtime.ImportModuleError: Cannot find module '${moduleName}' in ${assetDirectory}`);
  const module = await import(pathToFileURL(file).href);
  const fn = module[exportName] ?? module.default?.[exportName];
  if (typeof fn !== 'function') throw new Error(`Runtime.HandlerNotFound: ${handler} is undefined or not exported`);
  return fn;
}

function loadSource() {
  // tsx's CommonJS hook works in any thread on Node 20 (its ESM `--import` hooks do not reach workers there).
  const require = createRequire(spec.file);
  require('tsx/cjs/api').register();
  const module = require(spec.file);
  return module.createHandler(process.env, overrides);
}

let loading;
const load = () => (loading ??= spec.kind === 'bundle' ? loadBundle() : Promise.resolve().then(loadSource));

const describe = (error) => ({
  name: error?.name ?? 'Error',
  message: String(error?.message ?? error),
  stack: typeof error?.stack === 'string' ? error.stack : undefined,
});

parentPort.on('message', async (message) => {
  if (message.kind === 'reply') {
    const call = calls.get(message.id);
    calls.delete(message.id);
    if (message.ok) call?.resolve(message.result);
    else call?.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
    return;
  }
  if (message.kind === 'cpu') {
    parentPort.postMessage({ kind: 'result', id: message.id, ok: true, result: threadCpuMs() ?? null });
    return;
  }
  if (message.kind === 'init') {
    try {
      await load();
      parentPort.postMessage({ kind: 'result', id: message.id, ok: true });
    } catch (error) {
      parentPort.postMessage({ kind: 'result', id: message.id, ok: false, error: describe(error) });
    }
    return;
  }
  const { id, event, context } = message;
  // Lambda sets the trace header of each invocation in the environment (Powertools Tracer reads it).
  // Not for the local runtime's sources: as inline, tracing stays off there (a trace id switches the
  // X-Ray SDK's context tracking on for every promise, several ms of CPU per message).
  if (spec.kind === 'bundle')
    process.env._X_AMZN_TRACE_ID = `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${context.awsRequestId.replace(/-/g, '').slice(0, 24)};Parent=${context.awsRequestId.replace(/-/g, '').slice(0, 16)};Sampled=0`;
  try {
    const fn = await load();
    const lambdaContext = {
      ...context,
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, context.deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    };
    const result = await fn(event, lambdaContext);
    parentPort.postMessage({ kind: 'result', id, ok: true, result: result === undefined ? null : JSON.parse(JSON.stringify(result)) });
  } catch (error) {
    parentPort.postMessage({ kind: 'result', id, ok: false, error: describe(error) });
  }
});
