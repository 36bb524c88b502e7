/**
 * The fifth organization's single message beside N draining organizations, with each function in
 * a worker thread of its own (`npm run bench -- --only=fifth --fifth-isolation=threads`).
 *
 * `--only=fifth` runs every function on the bench's one Node thread: at 10 organizations (800/s
 * asked of 2 cores) the single message waits mostly for its own accept behind the drains' work on
 * that event loop. On AWS each function is a Lambda of its own; here the local runtime's `threads`
 * isolation gives broadcast-send, single-sender and the chunk worker each a thread (as
 * bench/local-cores.ts), so the operating system shares the two cores between them and the figure
 * shows what the lane gives a small organization when its functions are not queued behind the
 * drains' code. The emulators (one thread) and the gateway and sandbox (the main thread) are still
 * shared by all. Same workload as `--only=fifth`: accounts at 80/s at Meta's latency, a
 * one-recipient broadcast every second from one more organization, request → sandbox receipt.
 */
import { rmSync } from 'node:fs';
import { getServices } from '../functions/composition';
import { META_LATENCY } from './drain-latency';
import { fifthOrganizationSender, type FifthOrganizationResult } from './fifth-organization';
import { awaitAccepted } from './lib/await-accepted';
import { percentile } from './lib/stats';
import { startThreadsRuntime } from './lib/threads-runtime';
import { broadcastBody, createBenchTenant, issueKey, postBroadcast, withRestoredEnvironment, type BenchTenant } from './lib/workload';

export interface FifthThreadsOptions {
  drainingOrganizations: number;
  totalRecipients: number;
  /** Environments (worker threads) per function at most (default 2). */
  maxInstancesPerFunction: number;
  log: (line: string) => void;
}

export interface FifthThreadsRun {
  fifth: FifthOrganizationResult;
  /** Aggregate drain rate (first to last message of any draining account) over the rate asked. */
  drainFraction: number;
  accountFractions: number[];
  duplicates: number;
  lost: number;
  completed: boolean;
  /**
   * The single sends started once the first 10 s had passed, request → sandbox, p50 / p99: past the
   * drains' ten accepts, taken together by broadcast-send's two environments (on AWS, ten Lambdas),
   * and the functions' second environments' cold starts.
   */
  steady: { sends: number; p50Ms: number; p99Ms: number };
  /** Busiest threads by ELU over the run. */
  threads: Array<{ name: string; utilization: number }>;
  wallSeconds: number;
}

const RATE = 80;
const STEADY_AFTER_MS = 10_000;

export const benchFifthThreads = (options: FifthThreadsOptions): Promise<FifthThreadsRun> => withRestoredEnvironment(() => fifthThreadsOnce(options));

async function fifthThreadsOnce(options: FifthThreadsOptions): Promise<FifthThreadsRun> {
  const { runtime, dataDirectory } = await startThreadsRuntime({
    label: 'fifth-threads',
    maxInstancesPerFunction: options.maxInstancesPerFunction,
    ratePerSecond: RATE,
  });
  try {
    const services = getServices();
    const sandbox = runtime.sandbox!;
    const perAccount = Math.max(1_001, Math.floor(options.totalRecipients / options.drainingOrganizations));
    const tenants: BenchTenant[] = [];
    for (let account = 0; account < options.drainingOrganizations; account += 1) tenants.push(await createBenchTenant(services, sandbox, 100 + account, RATE));
    sandbox.configure({
      throughputPerSecond: RATE,
      throughputByPhoneNumberId: Object.fromEntries(tenants.map((tenant) => [tenant.phoneNumberId, RATE])),
      ...META_LATENCY,
    });
    const keys = await Promise.all(tenants.map((tenant) => issueKey(services, tenant.organizationId)));
    const sender = fifthOrganizationSender(1_000);
    await sender.prepare({ services, sandbox, baseUrl: runtime.baseUrl, runtime });
    // The consumers' cold starts happen at boot: let them finish before measuring (the figure is
    // the lane's steady state; a first message after a deploy also meets single-sender's cold start).
    for (const name of ['chunk-worker', 'single-sender'] as const) await (await runtime.functionHandler(name))({ Records: [] }).catch(() => undefined);

    const draining = new Set(tenants.map((tenant) => tenant.phoneNumberId));
    const drained = () => sandbox.acceptedMessages().filter((message) => draining.has(message.phoneNumberId));
    const expected = perAccount * tenants.length;
    const started = performance.now();
    const answers = await Promise.all(
      tenants.map((tenant, account) =>
        postBroadcast(
          runtime.baseUrl,
          keys[account]!,
          JSON.stringify(broadcastBody({ count: perAccount, seed: account, from: tenant.phoneNumber, name: 'fifth threads' })),
        ),
      ),
    );
    const refused = answers.find((answer) => answer.status !== 202);
    if (refused) throw new Error(`broadcast refused: ${refused.status} ${JSON.stringify(refused.body).slice(0, 300)}`);
    const deadline = performance.now() + ((perAccount / RATE) * 3 + 150) * 1000;
    const drainEnded = awaitAccepted({ acceptedSoFar: () => drained().length, expected, deadline, stallMs: 45_000 });
    const [wait] = await Promise.all([drainEnded, sender.start(drainEnded.then(() => undefined))]);
    const fifth = sender.result()!;
    const wallSeconds = (performance.now() - started) / 1000;

    const messages = drained();
    const unique = new Set(messages.map((message) => `${message.phoneNumberId} ${message.recipient}`)).size;
    const rateOf = (times: number[]) => (times.length - 1) / ((Math.max(...times) - Math.min(...times)) / 1000);
    const accountFractions = tenants.map(
      (tenant) => rateOf(messages.filter((message) => message.phoneNumberId === tenant.phoneNumberId).map((message) => Date.parse(message.receivedAt))) / RATE,
    );
    const firstSentAt = Math.min(...fifth.sends.map((send) => send.sentAt));
    const steadyDelays = fifth.sends.flatMap((send) => (send.sentAt >= firstSentAt + STEADY_AFTER_MS ? [send.toSandboxMs ?? Infinity] : []));
    const threads = runtime
      .threadUtilization()
      .map((thread) => ({ name: thread.name, utilization: thread.active / Math.max(1e-9, thread.active + thread.idle) }))
      .sort((a, b) => b.utilization - a.utilization);
    return {
      fifth,
      steady: { sends: steadyDelays.length, p50Ms: percentile(steadyDelays, 50), p99Ms: percentile(steadyDelays, 99) },
      drainFraction: rateOf(messages.map((message) => Date.parse(message.receivedAt))) / (RATE * tenants.length),
      accountFractions,
      duplicates: messages.length - unique,
      lost: expected - unique,
      completed: wait.completed,
      threads: threads.slice(0, 8),
      wallSeconds,
    };
  } finally {
    await runtime.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}
