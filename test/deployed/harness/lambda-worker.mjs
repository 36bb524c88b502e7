// One Lambda execution environment in a worker thread: loads the bundled asset named by the
// function's Handler (`index.handler` → index.mjs or index.js, export `handler`) with the
// environment the template gives the function (the worker's own process.env), and runs
// invocations posted by the host. Plain JavaScript: it runs in Node, outside jest's transform.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const { assetDirectory, handler } = workerData;
// Lambda names the code directory in LAMBDA_TASK_ROOT (the docs function reads its bundled renderer files there).
process.env.LAMBDA_TASK_ROOT = assetDirectory;
const dot = handler.lastIndexOf('.');
const moduleName = handler.slice(0, dot);
const exportName = handler.slice(dot + 1);

let loading;
function load() {
  loading ??= (async () => {
    const file = ['.mjs', '.js', '.cjs'].map((extension) => join(assetDirectory, moduleName + extension)).find(existsSync);
    if (!file) throw new Error(`Runtime.ImportModuleError: Cannot find module '${moduleName}' in ${assetDirectory}`);
    const module = await import(pathToFileURL(file).href);
    const fn = module[exportName] ?? module.default?.[exportName];
    if (typeof fn !== 'function') throw new Error(`Runtime.HandlerNotFound: ${handler} is undefined or not exported`);
    return fn;
  })();
  return loading;
}

const describe = (error) => ({
  name: error?.name ?? 'Error',
  message: String(error?.message ?? error),
  stack: typeof error?.stack === 'string' ? error.stack : undefined,
});

parentPort.on('message', async (message) => {
  if (message.kind === 'init') {
    try {
      await load();
      parentPort.postMessage({ id: message.id, ok: true });
    } catch (error) {
      parentPort.postMessage({ id: message.id, ok: false, error: describe(error) });
    }
    return;
  }
  const { id, event, context } = message;
  // Lambda sets the trace header of each invocation in the environment (Powertools Tracer reads it).
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
    parentPort.postMessage({ id, ok: true, result: result === undefined ? null : JSON.parse(JSON.stringify(result)) });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, error: describe(error) });
  }
});
