/**
 * Both cores locally: a drain through the local runtime in `threads` isolation (each function in
 * its own worker thread, dynalite and fauxqs in another, gateway, event sources and the sandbox in
 * the main thread), with the fast (instant) sandbox paced at the account's rate.
 *
 * Figures: achieved rate as a fraction of the configured one (first to last message the sandbox
 * accepted, as in bench/drain.ts), exactly-once, the event-loop utilisation of every thread over
 * the drain (worker.performance.eventLoopUtilization() deltas; the main thread's from perf_hooks),
 * the CPU time of every thread (local/thread-cpu.cjs: ELU counts a thread waiting for a core as
 * busy, so on a shared machine it overstates), and the chunk worker's own CPU per message: the
 * CPU time of the chunk-worker threads over the drain divided by the messages sent. Those threads
 * run nothing but the chunk worker (the emulators and the sandbox live elsewhere), so this is its
 * CPU, emulators excluded.
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { getServices } from '../functions/composition';
import type { ThreadCpu, ThreadUtilization } from '../local/function-host';
import { awaitAccepted } from './lib/await-accepted';
import { sleep } from './lib/stats';
import { startThreadsRuntime } from './lib/threads-runtime';
import { broadcastBody, createBenchTenant, issueKey, postBroadcast, withRestoredEnvironment } from './lib/workload';

export interface CoresOptions {
  ratePerSecond: number;
  recipients: number;
  /** Environments (worker threads) per function at most. */
  maxInstancesPerFunction: number;
  log?: (line: string) => void;
}

export interface ThreadFigure {
  name: string;
  threadId: number;
  utilization: number;
  activeMs: number;
  /** CPU time the thread used over the drain (ms), and as a share of one core. */
  cpuMs?: number;
  cpuShare?: number;
}

export interface CoresRun {
  maxInstancesPerFunction: number;
  accepted: number;
  uniqueRecipients: number;
  duplicates: number;
  lost: number;
  achievedPerSecond: number;
  fraction: number;
  completed: boolean;
  threads: ThreadFigure[];
  chunkWorkerCpuMicrosPerMessage: number;
  processCpuSecondsPerSecond: number;
  bootMs: number;
  wallSeconds: number;
  loadAverage: number[];
}

/** Per-thread ELU between two samples (threads started in between count from their start). */
function utilizationBetween(
  before: { elu: ThreadUtilization[]; cpu: ThreadCpu[] },
  after: { elu: ThreadUtilization[]; cpu: ThreadCpu[] },
  wallMs: number,
): ThreadFigure[] {
  const same = (thread: { threadId: number; name: string }) => (candidate: { threadId: number; name: string }) =>
    candidate.threadId === thread.threadId && candidate.name === thread.name;
  return after.elu.map((thread) => {
    const earlier = before.elu.find(same(thread));
    const active = thread.active - (earlier?.active ?? 0);
    const idle = thread.idle - (earlier?.idle ?? 0);
    const cpuAfter = after.cpu.find(same(thread))?.cpuMs;
    const cpuMs = cpuAfter === undefined ? undefined : cpuAfter - (before.cpu.find(same(thread))?.cpuMs ?? 0);
    return {
      name: thread.name,
      threadId: thread.threadId,
      activeMs: active,
      utilization: active / Math.max(1e-9, active + idle),
      cpuMs,
      cpuShare: cpuMs === undefined ? undefined : cpuMs / wallMs,
    };
  });
}

export const benchLocalCores = (options: CoresOptions): Promise<CoresRun> => withRestoredEnvironment(() => coresOnce(options));

async function coresOnce(options: CoresOptions): Promise<CoresRun> {
  const log = options.log ?? (() => undefined);
  const bootStarted = performance.now();
  const { runtime, dataDirectory } = await startThreadsRuntime({ label: 'cores', ...options });
  const bootMs = performance.now() - bootStarted;
  try {
    const services = getServices();
    const sandbox = runtime.sandbox!;
    const tenant = await createBenchTenant(services, sandbox, 300, options.ratePerSecond);
    sandbox.configure({ throughputPerSecond: options.ratePerSecond, throughputByPhoneNumberId: { [tenant.phoneNumberId]: options.ratePerSecond } });
    const key = await issueKey(services, tenant.organizationId);
    const body = JSON.stringify(broadcastBody({ count: options.recipients, seed: 0, from: tenant.phoneNumber, name: 'cores' }));
    const ours = () => sandbox.acceptedMessages().filter((message) => message.phoneNumberId === tenant.phoneNumberId);
    // The queue consumers' cold starts happen in the background at boot: let them finish before measuring.
    await (await runtime.functionHandler('chunk-worker'))({ Records: [] }).catch(() => undefined);

    const sample = async () => ({ elu: runtime.threadUtilization(), cpu: await runtime.threadCpu() });
    const before = await sample();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const answer = await postBroadcast(runtime.baseUrl, key, body);
    if (answer.status !== 202) throw new Error(`broadcast refused: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    const deadline = performance.now() + ((options.recipients / options.ratePerSecond) * 3 + 120) * 1000;
    const wait = await awaitAccepted({ acceptedSoFar: () => ours().length, expected: options.recipients, deadline });
    if (!wait.stalled) await Promise.race([runtime.workersIdle(), sleep(Math.max(0, deadline - performance.now()))]);
    const wallSeconds = (performance.now() - started) / 1000;
    const threads = utilizationBetween(before, await sample(), wallSeconds * 1000);
    const usage = process.cpuUsage(cpu);

    const messages = ours();
    const times = messages.map((message) => Date.parse(message.receivedAt));
    const unique = new Set(messages.map((message) => message.recipient)).size;
    const achievedPerSecond = (messages.length - 1) / ((Math.max(...times) - Math.min(...times)) / 1000);
    // CPU time of the chunk-worker threads (not their ELU: on a busy machine a thread waiting for a core counts as active).
    const chunkThreads = threads.filter((thread) => thread.name === 'chunk-worker');
    const chunkCpuMs = chunkThreads.reduce((sum, thread) => sum + (thread.cpuMs ?? thread.activeMs), 0);
    const run: CoresRun = {
      maxInstancesPerFunction: options.maxInstancesPerFunction,
      accepted: messages.length,
      uniqueRecipients: unique,
      duplicates: messages.length - unique,
      lost: options.recipients - unique,
      achievedPerSecond,
      fraction: achievedPerSecond / options.ratePerSecond,
      completed: wait.completed,
      threads,
      chunkWorkerCpuMicrosPerMessage: (chunkCpuMs * 1000) / Math.max(1, messages.length),
      processCpuSecondsPerSecond: (usage.user + usage.system) / 1e6 / wallSeconds,
      bootMs,
      wallSeconds,
      loadAverage: loadavg(),
    };
    log(
      `  threads, ${options.maxInstancesPerFunction} environment(s) per function: ${run.accepted}/${options.recipients} accepted, ${achievedPerSecond.toFixed(1)}/s = ${(run.fraction * 100).toFixed(1)}%, ` +
        `dup ${run.duplicates}, lost ${run.lost}, chunk worker ${run.chunkWorkerCpuMicrosPerMessage.toFixed(0)} µs/message, process CPU ${run.processCpuSecondsPerSecond.toFixed(2)} cores, ${wallSeconds.toFixed(1)} s`,
    );
    return run;
  } finally {
    const stopStarted = performance.now();
    await runtime.stop();
    log(`  boot ${Math.round(bootMs)} ms, stop ${Math.round(performance.now() - stopStarted)} ms`);
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}
