/**
 * dynalite and fauxqs started in a worker thread of their own (the `threads` isolation of the
 * local runtime): the functions and the gateway no longer share one event loop with them.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ThreadCpu, ThreadUtilization } from './function-host';

export interface EmulatorThread {
  dynamoEndpoint: string;
  sqsEndpoint: string;
  utilization(): ThreadUtilization[];
  cpu(): Promise<ThreadCpu[]>;
  stop(): Promise<void>;
}

type EmulatorMessage =
  | { kind: 'started'; dynamoEndpoint: string; sqsEndpoint: string }
  | { kind: 'failed'; message: string }
  | { kind: 'stopped' }
  | { kind: 'cpu'; cpuMs: number | null };

export async function startEmulatorThread(options: { dynamoDataDirectory?: string }): Promise<EmulatorThread> {
  const worker = new Worker(join(__dirname, 'emulator-worker.mjs'), {
    workerData: { emulatorsFile: join(__dirname, 'emulators.ts'), dynamoDataDirectory: options.dynamoDataDirectory },
  });
  const next = () =>
    new Promise<EmulatorMessage>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the emulator thread exited with code ${code}`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.once('message', (message: EmulatorMessage) => {
        worker.off('error', reject);
        worker.off('exit', onExit);
        resolve(message);
      });
    });
  const started = await next().catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });
  if (started.kind !== 'started') {
    await worker.terminate();
    throw new Error(`the emulators failed to start: ${started.kind === 'failed' ? started.message : started.kind}`);
  }
  let stopped = false;
  return {
    dynamoEndpoint: started.dynamoEndpoint,
    sqsEndpoint: started.sqsEndpoint,
    utilization: () => (stopped ? [] : [{ name: 'emulators (dynalite, fauxqs)', threadId: worker.threadId, ...worker.performance.eventLoopUtilization() }]),
    cpu: async () => {
      if (stopped) return [];
      const answer = next();
      worker.postMessage({ kind: 'cpu' });
      const message = (await answer) as { kind: 'cpu'; cpuMs: number | null };
      return [{ name: 'emulators (dynalite, fauxqs)', threadId: worker.threadId, cpuMs: message.cpuMs ?? undefined }];
    },
    stop: async () => {
      // The emulators close their servers first (data on disk flushed), then the thread ends.
      const answered = next();
      worker.postMessage({ kind: 'stop' });
      await Promise.race([answered.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      await worker.terminate();
      stopped = true;
    },
  };
}
