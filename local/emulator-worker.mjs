// dynalite and fauxqs in their own worker thread (local/emulator-thread.ts), so the functions'
// threads and the emulators use different cores. Plain JavaScript, like local/function-worker.mjs;
// local/emulators.ts itself is loaded through tsx's require hook.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(workerData.emulatorsFile);
require('tsx/cjs/api').register();
const { startDynalite, startFauxqsEmulator } = require(workerData.emulatorsFile);

const { threadCpuMs } = createRequire(import.meta.url)('./thread-cpu.cjs');
const running = [];
try {
  const dynalite = await startDynalite({ dataDirectory: workerData.dynamoDataDirectory });
  running.push(dynalite);
  const fauxqs = await startFauxqsEmulator({});
  running.push(fauxqs);
  parentPort.postMessage({ kind: 'started', dynamoEndpoint: dynalite.endpoint, sqsEndpoint: fauxqs.endpoint });
} catch (error) {
  parentPort.postMessage({ kind: 'failed', message: String(error?.message ?? error) });
}

parentPort.on('message', async (message) => {
  if (message.kind === 'cpu') return void parentPort.postMessage({ kind: 'cpu', cpuMs: threadCpuMs() ?? null });
  if (message.kind !== 'stop') return;
  for (const emulator of running.reverse()) await emulator.stop().catch(() => undefined);
  parentPort.postMessage({ kind: 'stopped' });
});
