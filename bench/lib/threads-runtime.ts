/**
 * The local runtime as the both-cores benches run it: each function in worker threads of its own
 * (`threads` isolation), a throwaway data directory, no demo tenant, a random port.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalRuntime, type LocalRuntime } from '../../local/local-runtime';

/**
 * @example
 * const { runtime, dataDirectory } = await startThreadsRuntime({ label: 'cores', maxInstancesPerFunction: 2, ratePerSecond: 1_000 });
 */
export async function startThreadsRuntime(options: {
  label: string;
  maxInstancesPerFunction: number;
  ratePerSecond: number;
}): Promise<{ runtime: LocalRuntime; dataDirectory: string }> {
  const dataDirectory = mkdtempSync(join(tmpdir(), `wbp-bench-${options.label}-`));
  const runtime = await startLocalRuntime({
    port: 0,
    persist: false,
    dataDirectory,
    isolation: 'threads',
    maxInstancesPerFunction: options.maxInstancesPerFunction,
    sandbox: { throughputPerSecond: options.ratePerSecond },
    seedDemo: false,
  });
  return { runtime, dataDirectory };
}
