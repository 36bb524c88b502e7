/**
 * Drain throughput: a broadcast job sent through the chunk worker to the Cloud API sandbox, with
 * the sandbox's throughput per phone number and the business account's pace set to the same rate.
 *
 * Each run starts a fresh local runtime (in memory) and a fresh business account per sender
 * (connected with `messagesPerSecond`, registered in the sandbox), posts the broadcast(s) through
 * the gateway, and measures from the first to the last message the sandbox accepted (`receivedAt`):
 * achieved rate = (messages - 1) / span, as a fraction of the configured rate. It then checks that
 * every recipient was accepted exactly once (no duplicates, none lost) and reads the ledger for
 * retries (attempts > 1: the sandbox refused a send, typically 130429 throughput).
 *
 * The chunk worker runs from the same SQS event source the local runtime uses
 * (local/sqs-event-source.ts, same batch size, concurrency and timeout as runtime-contract/resource-definitions),
 * started here instead of by the runtime so each invocation's duration can be recorded (Lambda
 * GB-seconds for the cost estimate) and its SDK client's requests counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance as perfHooks } from 'node:perf_hooks';
import { getServices } from '../functions/composition';
import { readChunkLedger } from '../shared/adapters/dynamodb/ledger-pages';
import type { CloudApiSandbox, SandboxControlPatch } from '../sandbox/cloud-api-sandbox';
import { chunkWorker, functions, singleSender } from '../runtime-contract/resource-definitions';
import { startLocalRuntime, type LocalRuntime } from '../local/local-runtime';
import { startSqsEventSource, type SqsBatchHandler } from '../local/sqs-event-source';
import { median, sleep } from './lib/stats';
import { awaitAccepted } from './lib/await-accepted';
import { profile, saveProfile, summarizeProfile, type ProfileSummary } from './lib/profile';
import { RequestCounter, type RequestCounts } from './lib/request-counter';
import { broadcastBody, createBenchTenant, issueKey, postBroadcast, withRestoredEnvironment, type BenchTenant } from './lib/workload';

const projectRoot = resolve(__dirname, '..');

/** An invocation's error; a batch failure names its first record's error (Powertools keeps them in `recordErrors`). */
const describeError = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const first = (error as { recordErrors?: unknown[] }).recordErrors?.[0];
  return `${error.name}: ${error.message}${first instanceof Error ? ` (first record: ${first.name}: ${first.message})` : ''}`;
};

export interface DrainScenario {
  label: string;
  accounts: number;
  ratePerSecond: number;
  recipientsPerAccount: number;
  /** Extra handler environment (e.g. WORKER_MAX_IN_FLIGHT) for a diagnostic variant. */
  environment?: Record<string, string>;
  /** Sandbox settings on top of the throughput (e.g. a `latency` distribution; bench/drain-latency.ts). */
  sandboxControl?: SandboxControlPatch;
  /** No new message for this long means stuck (default 15 s). */
  stallMs?: number;
  /**
   * Injects a fault into the run once its runtime is up (bench/drain-latency.ts: one store timeout);
   * answers what it injected, read after the drain, and removes it.
   */
  fault?: (run: { services: ReturnType<typeof getServices>; expected: number; acceptedSoFar: () => number }) => { injected: () => number; remove: () => void };
  /** Work beside the drain (e.g. another organization's single sends: bench/fifth-organization.ts). */
  alongside?: DrainAlongside;
  /**
   * Count DynamoDB requests (default true: section 5's cost reads them). The counter's middlewares
   * send every DynamoDB call through the SDK's stack (shared/adapters/sdk/direct-dynamodb-calls.ts),
   * so false measures the path the functions run; SQS is counted either way.
   */
  countDynamoDb?: boolean;
}

/**
 * Work run in the same runtime beside a drain: `prepare` before the broadcasts are posted (its
 * tenants, their sandbox settings), `start` once they are accepted, with a promise that settles
 * when every drained message is in (or the run stalled or timed out). Its result is the run's
 * `alongside`. Messages of its phone numbers are not counted in the drain's figures.
 */
export interface DrainAlongside {
  prepare(context: { services: ReturnType<typeof getServices>; sandbox: CloudApiSandbox; baseUrl: string; runtime: LocalRuntime }): Promise<void>;
  start(drainEnded: Promise<void>): Promise<unknown>;
}

/**
 * Several works beside one drain, prepared one after the other and started together; the run's
 * `alongside` is their results in the same order.
 *
 * @example
 * const both = besideEachOther(fifthOrganizationSender(1_000), campaignBeside);
 */
export function besideEachOther(...works: readonly DrainAlongside[]): DrainAlongside {
  return {
    async prepare(context) {
      for (const work of works) await work.prepare(context);
    },
    start: (drainEnded) => Promise.all(works.map((work) => work.start(drainEnded))),
  };
}

export interface AccountOutcome {
  phoneNumberId: string;
  accepted: number;
  uniqueRecipients: number;
  duplicates: number;
  lost: number;
  spanSeconds: number;
  achievedPerSecond: number;
  fraction: number;
  /** Most messages accepted in any one second window (must not exceed the rate). */
  peakPerSecond: number;
  ledger: { sent: number; failed: number; unknown: number; retries: number };
  /** Messages the sandbox accepted but never answered (injected timeouts, `latency.timeoutRate`). */
  answersLost: number;
  /** The account's first and last message at the sandbox (epoch ms): how the accounts overlapped. */
  firstAt: number;
  lastAt: number;
}

export interface DrainRun {
  accounts: AccountOutcome[];
  aggregate: { accepted: number; spanSeconds: number; achievedPerSecond: number; fraction: number; duplicates: number; lost: number };
  acceptMs: number[];
  /** Broadcast accepted → first message at the sandbox. */
  firstMessageAfterMs: number;
  wallSeconds: number;
  /** Faults the scenario's `fault` injected (0 without one). */
  faultsInjected: number;
  /** Errors thrown inside chunk invocations (by the worker's collaborators) or by the invocation. */
  /** Event-loop utilisation of the process during the drain (1 = the one JS thread never idle). */
  eventLoopUtilization: number;
  cpuSecondsPerSecond: number;
  invocations: { count: number; totalMs: number; durationsMs: number[]; failedBatches: number; errors: string[] };
  completed: boolean;
  /** Stopped waiting: no message for the scenario's stall time (15 s by default) before all were accepted. */
  stalled: boolean;
  requestCounts: RequestCounts;
  loadAverage: number[];
  /** What the scenario's `alongside` work returned. */
  alongside?: unknown;
}

export interface ScenarioResult {
  scenario: DrainScenario;
  runs: DrainRun[];
  medianFraction: number;
  medianAccountFractions: number[];
  allExactlyOnce: boolean;
  profile?: ProfileSummary;
}

export interface DrainOptions {
  scenarios: DrainScenario[];
  runsPerScenario: number;
  /** Wall-clock budget for the whole drain section; every scenario gets at least one run. */
  budgetSeconds: number;
  /** Profile the first run of the scenario with this label. */
  profileScenario?: string;
  profileFile?: string;
  /** Environment of a diagnostic variant run when a scenario fails with production settings. */
  diagnosticEnvironment?: Record<string, string>;
  log?: (line: string) => void;
}

/**
 * Records what the chunk worker's collaborators throw (bench-only wrapper around the dependency
 * objects; Powertools' partial batch response otherwise keeps only "this record failed").
 */
function tapErrors<T extends object>(target: T, name: string, seen: Map<string, number>): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const note = (error: unknown) => {
          const text = `${name}.${String(property)}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`.slice(0, 200);
          seen.set(text, (seen.get(text) ?? 0) + 1);
          throw error;
        };
        try {
          const result = (value as (...values: unknown[]) => unknown).apply(object, args);
          return result instanceof Promise ? result.catch(note) : result;
        } catch (error) {
          return note(error);
        }
      };
    },
  });
}

/** The bench's own reads after a run: a busy machine's emulator timeout must not lose the run's figures. */
async function readRetried<T>(read: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await sleep(1_000 * attempt);
    }
  }
}

async function ledgerStats(
  services: ReturnType<typeof getServices>,
  jobId: string,
  totalChunks: number,
): Promise<{ sent: number; failed: number; unknown: number; retries: number }> {
  const table = { client: services.clients.dynamoDb, tableName: services.config.tableNames.messaging! };
  const stats = { sent: 0, failed: 0, unknown: 0, retries: 0 };
  for (let chunk = 0; chunk < totalChunks; chunk += 1) {
    // Through the ledger's own reader: entries live in pages of 8 (and per recipient before them).
    const { entries } = await readRetried(() => readChunkLedger(table, jobId, chunk));
    for (const entry of entries) {
      if (entry.status === 'SENT') stats.sent += 1;
      else if (entry.status === 'FAILED') stats.failed += 1;
      else if (entry.status === 'UNKNOWN') stats.unknown += 1;
      stats.retries += Math.max(0, entry.attempts - 1);
    }
  }
  return stats;
}

function peakPerSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while (sorted[end]! - sorted[start]! >= 1000) start += 1;
    peak = Math.max(peak, end - start + 1);
  }
  return peak;
}

/** single-sender on the single-messages queue, as the contract defines its event source (docs/SCALE.md "The single-message lane"). */
async function startSingleSender(runtime: LocalRuntime, region: string): Promise<ReturnType<typeof startSqsEventSource>> {
  const handler = (await import('../functions/single-sender/single-sender.lambda')).createHandler(process.env) as unknown as SqsBatchHandler;
  return startSqsEventSource({
    sqs: runtime.sqs,
    queueUrl: runtime.queueUrls.singleMessages,
    queueArn: `arn:aws:sqs:${region}:000000000000:${runtime.queueUrls.singleMessages.split('/').pop()}`,
    handler,
    batchSize: singleSender.batchSize,
    maxConcurrency: singleSender.maxConcurrency,
    functionTimeoutSeconds: singleSender.timeoutSeconds,
    reportBatchItemFailures: singleSender.reportBatchItemFailures,
    memoryMb: singleSender.memoryMb,
  });
}

type DrainOnceResult = { run: DrainRun; profile?: ProfileSummary; rawProfile?: unknown };

const drainOnce = (scenario: DrainScenario, runIndex: number, log: (line: string) => void, profiled: boolean): Promise<DrainOnceResult> =>
  withRestoredEnvironment(() => drainOnceInner(scenario, runIndex, log, profiled));

async function drainOnceInner(scenario: DrainScenario, runIndex: number, log: (line: string) => void, profiled: boolean): Promise<DrainOnceResult> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-drain-'));
  const runtime = await startLocalRuntime({
    port: 0,
    persist: false,
    dataDirectory,
    sandbox: { throughputPerSecond: scenario.ratePerSecond },
    startWorkers: false,
    seedDemo: false,
    environment: scenario.environment,
  });
  const counter = new RequestCounter();
  let source: ReturnType<typeof startSqsEventSource> | undefined;
  /** The single-message lane's worker (single-sender, its own queue and ceiling): the fifth organization's sends travel it. */
  let singleSource: ReturnType<typeof startSqsEventSource> | undefined;
  let fault: ReturnType<NonNullable<DrainScenario['fault']>> | undefined;
  try {
    const services = getServices();
    if (scenario.countDynamoDb !== false) counter.attachDynamoDb(services.clients.dynamoDbBase);
    counter.attachSqs(services.clients.sqs);
    counter.attachSqs(runtime.sqs);
    const workerErrors = new Map<string, number>();
    const dependencies = services.chunkWorker as unknown as Record<string, object>;
    // The composition's ports are getters (lazyPorts): only plain properties can be wrapped.
    for (const name of ['broadcasts', 'pacer', 'queue', 'senders', 'upstream']) {
      if (Object.getOwnPropertyDescriptor(dependencies, name)?.writable) dependencies[name] = tapErrors(dependencies[name]!, name, workerErrors);
    }
    const sandbox = runtime.sandbox!;

    const tenants: BenchTenant[] = [];
    for (let account = 0; account < scenario.accounts; account += 1) {
      tenants.push(await createBenchTenant(services, sandbox, 100 + account, scenario.ratePerSecond));
    }
    sandbox.configure({
      throughputPerSecond: scenario.ratePerSecond,
      throughputByPhoneNumberId: Object.fromEntries(tenants.map((tenant) => [tenant.phoneNumberId, scenario.ratePerSecond])),
      ...scenario.sandboxControl,
    });
    const keys = await Promise.all(tenants.map((tenant) => issueKey(services, tenant.organizationId)));
    await scenario.alongside?.prepare({ services, sandbox, baseUrl: runtime.baseUrl, runtime });
    const bodies = tenants.map((tenant, account) =>
      JSON.stringify(
        broadcastBody({ count: scenario.recipientsPerAccount, seed: account, from: tenant.phoneNumber, name: `drain ${scenario.label} ${runIndex}` }),
      ),
    );

    const durationsMs: number[] = [];
    let failedBatches = 0;
    const errors = new Set<string>();
    // Built for this run's runtime: the module's own handler keeps the first runtime's endpoints.
    const worker = (await import('../functions/chunk-worker/chunk-worker.lambda')).createHandler(process.env) as unknown as SqsBatchHandler;
    const queueName = runtime.queueUrls.outbound.split('/').pop();
    source = startSqsEventSource({
      sqs: runtime.sqs,
      queueUrl: runtime.queueUrls.outbound,
      queueArn: `arn:aws:sqs:${services.config.region}:000000000000:${queueName}`,
      handler: worker,
      batchSize: chunkWorker.batchSize,
      maxConcurrency: chunkWorker.maxConcurrency,
      functionTimeoutSeconds: functions['chunk-worker'].timeoutSeconds,
      reportBatchItemFailures: true,
      memoryMb: chunkWorker.memoryMb,
      onBatch: (info) => {
        if (info.size === 0) return;
        durationsMs.push(info.durationMs);
        if (info.error !== undefined || info.failed > 0) failedBatches += 1;
        if (info.error !== undefined) errors.add(describeError(info.error));
      },
    });
    singleSource = await startSingleSender(runtime, services.config.region);
    counter.reset();

    const expected = scenario.accounts * scenario.recipientsPerAccount;

    const idealSeconds = scenario.recipientsPerAccount / scenario.ratePerSecond;
    const deadline = performance.now() + (idealSeconds * 3 + 150) * 1000;
    /** No new message for this long after the first one: the job is stuck (e.g. a failed chunk waits out its visibility timeout). */
    const stallMs = scenario.stallMs ?? 15_000;
    const phoneIds = new Set(tenants.map((tenant) => tenant.phoneNumberId));
    const acceptedSoFar = () => sandbox.acceptedMessages().filter((message) => phoneIds.has(message.phoneNumberId)).length;
    fault = scenario.fault?.({ services, expected, acceptedSoFar });

    const work = async () => {
      const elu = perfHooks.eventLoopUtilization();
      const cpu = process.cpuUsage();
      const started = performance.now();
      const answers = await Promise.all(tenants.map((_, account) => postBroadcast(runtime.baseUrl, keys[account]!, bodies[account]!)));
      const acceptedAt = performance.now();
      for (const answer of answers)
        if (answer.status !== 202) throw new Error(`broadcast refused: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      let endDrain = () => undefined as void;
      const alongside = scenario.alongside?.start(new Promise<void>((resolve) => (endDrain = resolve)));
      const { firstMessageAt, completed, stalled } = await awaitAccepted({ acceptedSoFar, expected, deadline, stallMs });
      endDrain();
      const alongsideResult = await alongside;
      // Let the workers finish their bookkeeping (outcomes, progress, reconcile) before reading.
      if (!stalled) await Promise.race([source!.idle(), sleep(Math.max(0, deadline - performance.now()))]);
      const wallSeconds = (performance.now() - started) / 1000;
      const usage = process.cpuUsage(cpu);
      return {
        answers,
        acceptedAt,
        firstMessageAfterMs: (firstMessageAt ?? Number.NaN) - acceptedAt,
        completed,
        stalled,
        wallSeconds,
        eventLoopUtilization: perfHooks.eventLoopUtilization(elu).utilization,
        cpuSecondsPerSecond: (usage.user + usage.system) / 1e6 / wallSeconds,
        alongsideResult,
      };
    };
    let outcome: Awaited<ReturnType<typeof work>>;
    let summary: ProfileSummary | undefined;
    let rawProfile: unknown;
    if (profiled) {
      const profiledRun = await profile(work, 1000);
      outcome = profiledRun.result;
      summary = summarizeProfile(profiledRun.profile, projectRoot);
      rawProfile = profiledRun.profile;
    } else {
      outcome = await work();
    }
    const requestCounts = counter.snapshot();
    fault?.remove();

    const all = sandbox.acceptedMessages().filter((message) => phoneIds.has(message.phoneNumberId));
    const accounts: AccountOutcome[] = [];
    for (const [account, tenant] of tenants.entries()) {
      const messages = all.filter((message) => message.phoneNumberId === tenant.phoneNumberId);
      const times = messages.map((message) => Date.parse(message.receivedAt));
      const spanSeconds = times.length > 1 ? (Math.max(...times) - Math.min(...times)) / 1000 : Number.NaN;
      const unique = new Set(messages.map((message) => message.recipient)).size;
      const achievedPerSecond = (messages.length - 1) / spanSeconds;
      const jobId = String(outcome.answers[account]!.body?.data?.jobId ?? '');
      accounts.push({
        phoneNumberId: tenant.phoneNumberId,
        accepted: messages.length,
        uniqueRecipients: unique,
        duplicates: messages.length - unique,
        lost: scenario.recipientsPerAccount - unique,
        spanSeconds,
        achievedPerSecond,
        fraction: achievedPerSecond / scenario.ratePerSecond,
        peakPerSecond: peakPerSecond(times),
        ledger: await ledgerStats(services, jobId, Math.ceil(scenario.recipientsPerAccount / 1000)),
        answersLost: messages.filter((message) => message.answerLost).length,
        firstAt: Math.min(...times),
        lastAt: Math.max(...times),
      });
    }
    const allTimes = all.map((message) => Date.parse(message.receivedAt));
    const aggregateSpan = (Math.max(...allTimes) - Math.min(...allTimes)) / 1000;
    const aggregateRate = (all.length - 1) / aggregateSpan;
    const run: DrainRun = {
      accounts,
      aggregate: {
        accepted: all.length,
        spanSeconds: aggregateSpan,
        achievedPerSecond: aggregateRate,
        fraction: aggregateRate / (scenario.ratePerSecond * scenario.accounts),
        duplicates: accounts.reduce((sum, account) => sum + account.duplicates, 0),
        lost: accounts.reduce((sum, account) => sum + account.lost, 0),
      },
      acceptMs: outcome.answers.map((answer) => answer.ms),
      firstMessageAfterMs: outcome.firstMessageAfterMs,
      wallSeconds: outcome.wallSeconds,
      eventLoopUtilization: outcome.eventLoopUtilization,
      cpuSecondsPerSecond: outcome.cpuSecondsPerSecond,
      invocations: {
        count: durationsMs.length,
        totalMs: durationsMs.reduce((sum, value) => sum + value, 0),
        durationsMs,
        failedBatches,
        errors: [...errors, ...[...workerErrors].map(([text, count]) => `${count} x ${text}`)],
      },
      completed: outcome.completed,
      stalled: outcome.stalled,
      faultsInjected: fault?.injected() ?? 0,
      requestCounts,
      loadAverage: (await import('node:os')).loadavg(),
      alongside: outcome.alongsideResult,
    };
    log(
      `  ${scenario.label} run ${runIndex + 1}: ${run.aggregate.accepted}/${expected} accepted, ${run.aggregate.achievedPerSecond.toFixed(1)}/s = ${(run.aggregate.fraction * 100).toFixed(1)}% ` +
        `[per account ${accounts.map((account) => `${(account.fraction * 100).toFixed(1)}%`).join(' ')}], dup ${run.aggregate.duplicates}, lost ${run.aggregate.lost}, ` +
        `retries ${accounts.reduce((sum, account) => sum + account.ledger.retries, 0)}, ELU ${run.eventLoopUtilization.toFixed(2)}, ${run.wallSeconds.toFixed(1)} s`,
    );
    return { run, profile: summary, rawProfile };
  } finally {
    // A stuck invocation must not hold the bench: stop polling, give in-flight batches 20 s.
    await Promise.race([Promise.all([source?.stop(), singleSource?.stop()]), sleep(20_000)]);
    fault?.remove();
    await runtime.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

const failed = (run: DrainRun) => !run.completed || run.invocations.failedBatches > 0;

export async function benchDrain(options: DrainOptions): Promise<ScenarioResult[]> {
  const log = options.log ?? (() => undefined);
  const started = performance.now();
  const results: ScenarioResult[] = options.scenarios.map((scenario) => ({
    scenario,
    runs: [],
    medianFraction: Number.NaN,
    medianAccountFractions: [],
    allExactlyOnce: false,
  }));
  // Round-robin over scenarios so a tight budget still leaves each scenario with a run, then more.
  // A scenario whose production-default run fails (stuck or failed chunks) is not repeated; a
  // diagnostic variant with fewer in-flight sends per worker is added instead.
  for (let round = 0; round < options.runsPerScenario; round += 1) {
    for (const result of [...results]) {
      const { scenario } = result;
      if (result.runs.length < round) continue;
      if (round > 0 && result.runs.length > 0 && failed(result.runs[0]!)) continue;
      const elapsed = (performance.now() - started) / 1000;
      const previous = result.runs.at(-1);
      const estimate = previous ? previous.wallSeconds + 5 : scenario.recipientsPerAccount / scenario.ratePerSecond + 10;
      if (result.runs.length > 0 && elapsed + estimate > options.budgetSeconds) {
        log(`  ${scenario.label} run ${result.runs.length + 1}: skipped (drain budget ${options.budgetSeconds} s, ${Math.round(elapsed)} s used)`);
        continue;
      }
      const profiled = result.runs.length === 0 && scenario.label === options.profileScenario;
      const { run, profile: summary, rawProfile } = await drainOnce(scenario, result.runs.length, log, profiled);
      result.runs.push(run);
      if (summary) result.profile = summary;
      if (rawProfile && options.profileFile) saveProfile(rawProfile as Parameters<typeof saveProfile>[0], options.profileFile);
      if (result.runs.length === 1 && failed(run) && options.diagnosticEnvironment && !scenario.environment) {
        const variant: DrainScenario = {
          ...scenario,
          label: `${scenario.label}, ${Object.entries(options.diagnosticEnvironment)
            .map(([name, value]) => `${name}=${value}`)
            .join(' ')}`,
          environment: options.diagnosticEnvironment,
        };
        log(`  ${scenario.label}: failed with production settings; adding diagnostic variant "${variant.label}"`);
        results.push({ scenario: variant, runs: [], medianFraction: Number.NaN, medianAccountFractions: [], allExactlyOnce: false });
        // Its first run comes right away (first runs are never skipped), profiled if the failed one was.
        const diagnostic = await drainOnce(variant, 0, log, profiled);
        results.at(-1)!.runs.push(diagnostic.run);
        if (diagnostic.profile) results.at(-1)!.profile = diagnostic.profile;
        if (diagnostic.rawProfile && options.profileFile)
          saveProfile(diagnostic.rawProfile as Parameters<typeof saveProfile>[0], options.profileFile.replace(/(\.cpuprofile)?\.json$/, '-diagnostic$1.json'));
      }
    }
  }
  for (const result of results) {
    result.medianFraction = median(result.runs.map((run) => run.aggregate.fraction));
    result.medianAccountFractions = Array.from({ length: result.scenario.accounts }, (_, account) =>
      median(result.runs.map((run) => run.accounts[account]!.fraction)),
    );
    result.allExactlyOnce = result.runs.every((run) => run.completed && run.aggregate.duplicates === 0 && run.aggregate.lost === 0);
  }
  return results;
}
