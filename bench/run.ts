/**
 * `npm run bench`: performance figures of the platform on this machine, printed as tables and
 * written to bench/results/latest.json. Not a test; `npm test` never runs it.
 *
 *   npm run bench                          # everything (about 8-10 minutes)
 *   npm run bench -- --only=accept,drain   # some sections: startup, bundles, accept, drain, events, loop, pacing, wrapper, webhook, webhooks, fairness, load
 *   npm run bench -- --only=load --load-rate=100 --load-seconds=10   # mixed load, shorter than its default 200/s for 60 s
 *   npm run bench -- --only=load --load-isolation=threads            # mixed load with each function in its own worker thread (default: inline)
 *   npm run bench -- --only=wrapper --wrapper-requests=500 --wrapper-single-requests=200   # shorter wrapper runs
 *   npm run bench -- --only=cores --cores-recipients=2000 --cores-instances=1,2   # both cores: threads isolation (default 10,000 at 1,000/s, 1 and 2 environments)
 *   npm run bench -- --only=accept --accept-rounds=1 --accept-requests=5   # accept (plain, then rich), fewer requests than its default 3 rounds of 20
 *   npm run bench -- --only=cost --cost-recipients=1000 --cost-statuses-per-post=100   # cost incl. delivery events
 *   npm run bench -- --only=sdk --sdk-calls=1000 --sdk-rounds=3   # client CPU per DynamoDB call, by client setting (a stub server)
 *   npm run bench -- --only=sdk --sdk-variants=resolved   # only the DynamoDB variants whose name contains "resolved"
 *   npm run bench -- --only=fifth --fifth-recipients=8000   # a fifth organization's single sends while 4 accounts drain (default 40,000 in all)
 *   npm run bench -- --only=fifth --fifth-recipients=4000 --fifth-orgs=10   # the same beside 10 draining organizations
 *   npm run bench -- --only=fifth --fifth-orgs=10 --fifth-isolation=threads   # each function in its own thread (--fifth-environments=2)
 *   npm run bench -- --only=hot --hot-recipients=3000       # hottest DynamoDB items' writes/s in a 1,000/s drain with its events (docs/SCALE.md)
 *   npm run bench -- --only=scale --scale-seconds=120 [--scale-variant=lanes] [--scale-seed=40] [--scale-campaign-members=20000]   # the deterministic scale simulation (bench/scale/scale-section.ts lists every option)
 *   npm run bench -- --only=rules --rules-chunks=100 --rules-reservations=500   # send rules: the window split's CPU per recipient, frequency-cap reservations on dynalite
 *   npm run bench -- --only=split --split-runs=5            # meta-webhook CPU of one 4 MiB signed batch (docs/PERFORMANCE.md 4j)
 *   npm run bench -- --only=campaign --campaign-members=20000 --campaign-launch-members=20000 --campaign-expansion-members=20000,60000 --campaign-drain-members=20000 --campaign-beside-members=20000 --fifth-recipients=8000
 *                                                          # audiences and campaigns, short (bench/campaign.ts lists the sizes; --campaign-parts= picks parts)
 *
 * Everything talks to 127.0.0.1 only; every loop is bounded in count and time.
 * docs/PERFORMANCE.md explains the figures, the goals and the cost estimate.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

// Before any handler module loads: the handlers' per-request INFO lines would drown the tables.
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

const sections = [
  'startup',
  'bundles',
  'accept',
  'drain',
  'events',
  'loop',
  'pacing',
  'wrapper',
  'webhook',
  'webhooks',
  'fairness',
  'load',
  'latency',
  'fifth',
  'hot',
  'cores',
  'cost',
  'sdk',
  'split',
  'campaign',
  'scale',
  'rules',
] as const;
type Section = (typeof sections)[number];

const onlyArgument = process.argv.find((argument) => argument.startsWith('--only='));
const selected = new Set<Section>(
  onlyArgument
    ? (onlyArgument
        .slice('--only='.length)
        .split(',')
        .filter((name) => (sections as readonly string[]).includes(name)) as Section[])
    : sections,
);

const numberArgument = (name: string): number | undefined => {
  const argument = process.argv.find((candidate) => candidate.startsWith(`--${name}=`));
  if (!argument) return undefined;
  const value = Number(argument.slice(name.length + 3));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};

const resultsDirectory = join(__dirname, 'results');

async function main(): Promise<void> {
  const { renderTable, section } = await import('./lib/table');
  const { int, kib, median, ms, pct, round } = await import('./lib/stats');
  const out = (text: string) => process.stdout.write(`${text}\n`);
  const benchStarted = performance.now();
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((value) => round(value, 2)),
  };
  out(`Machine: ${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.platform}, Node ${machine.node}`);
  out(
    `Load average at start (1/5/15 min): ${machine.loadAverageAtStart.join(' / ')}${machine.loadAverageAtStart[0]! > machine.cpus ? '  << other work is running: figures will be noisy' : ''}`,
  );

  const results: Record<string, unknown> = { startedAt: new Date().toISOString(), machine };
  const loadBySection: Record<string, number[]> = {};
  const goals: Array<{ figure: string; value: string; goal: string; met: string }> = [];

  if (selected.has('startup')) {
    out(section('1. npm start: startup and shutdown (3 runs)'));
    const { benchStartup } = await import('./startup');
    const startup = await benchStartup(3, out);
    results.startup = startup;
    loadBySection.startup = os.loadavg();
    const cold = startup.samples.filter((sample) => sample.kind === 'cold');
    const warm = startup.samples.filter((sample) => sample.kind === 'warm');
    out(
      renderTable(
        ['figure', 'median', 'runs'],
        [
          [
            'cold boot (fresh data dir, seeding): spawn -> banner',
            ms(startup.medians.coldReadyMs),
            cold.map((sample) => Math.round(sample.readyMs)).join(', '),
          ],
          ['  of which inside the app ("ready in")', ms(median(cold.map((s) => s.selfReportedMs))), cold.map((s) => s.selfReportedMs).join(', ')],
          [
            'warm boot (same data dir, no seeding): spawn -> banner',
            ms(startup.medians.warmReadyMs),
            warm.map((sample) => Math.round(sample.readyMs)).join(', '),
          ],
          ['  of which inside the app ("ready in")', ms(median(warm.map((s) => s.selfReportedMs))), warm.map((s) => s.selfReportedMs).join(', ')],
          ['shutdown, Ctrl-C to the process group -> npm exits', ms(startup.medians.ctrlCStopMs), cold.map((sample) => Math.round(sample.stopMs)).join(', ')],
          ['shutdown, SIGINT to the app process -> npm exits', ms(startup.medians.sigintAppStopMs), warm.map((sample) => Math.round(sample.stopMs)).join(', ')],
          ['  of which runtime.stop() (in-process, with chunk-worker poller)', ms(startup.inProcessStopMs.withWorkers), ''],
          ['  of which runtime.stop() (in-process, startWorkers: false)', ms(startup.inProcessStopMs.withoutWorkers), ''],
          ['app exit code after SIGINT', startup.appExitCodes.join(', '), ''],
          ['npm status after Ctrl-C (sh re-raises SIGINT)', cold.map((s) => s.npmExitSignal ?? s.npmExitCode).join(', '), ''],
          ['"stopped." printed, no process left, stderr clean', startup.allClean ? 'yes' : 'NO', ''],
          ['warm boot reused demo credentials (no seeding)', warm.every((s) => !s.seeded) ? 'yes' : 'NO', ''],
        ],
      ),
    );
    for (const sample of startup.samples) if (sample.stderrProblems.length) out(`  stderr (${sample.kind}): ${sample.stderrProblems.join(' | ')}`);
    goals.push(
      { figure: 'npm start cold boot to banner', value: ms(startup.medians.coldReadyMs), goal: 'none set', met: '-' },
      { figure: 'npm start warm boot to banner', value: ms(startup.medians.warmReadyMs), goal: 'none set', met: '-' },
      { figure: 'shutdown on SIGINT', value: ms(startup.medians.sigintAppStopMs), goal: 'none set', met: '-' },
      {
        figure: 'clean exit on SIGINT',
        value: `exit ${startup.appExitCodes.join('/')}`,
        goal: 'exit code 0, nothing left running',
        met: startup.allClean && startup.appExitCodes.every((code) => code === 0) ? 'yes' : 'no',
      },
    );
  }

  if (selected.has('bundles')) {
    out(section('2. Lambda bundles (esbuild as CDK bundles them; load = import() in a fresh node, median of 5)'));
    const { benchBundles } = await import('./bundles');
    const bundles = await benchBundles(5, () => undefined);
    results.bundles = bundles;
    loadBySection.bundles = os.loadavg();
    out(`esbuild: ${JSON.stringify(bundles.esbuildOptions)}`);
    const goalRatio = 1.3;
    const ratio = (value: number, floor: number) => `${(value / floor).toFixed(2)}x`;
    const verdictOf = (bundle: (typeof bundles.bundles)[number]) => {
      if (bundle.clientsCalled.length === 0) return 'n/a (no SDK client: floor is an empty handler)';
      const extra = bundle.clientsCarried.filter((client) => !bundle.clientsCalled.includes(client));
      const met = bundle.bytes <= goalRatio * bundle.floor.bytes && bundle.loadMsMedian <= goalRatio * bundle.floor.loadMsMedian && extra.length === 0;
      return met ? 'met' : `not met${extra.length ? ` (carries ${extra.join(', ')})` : ''}`;
    };
    out(
      renderTable(
        [
          'function',
          'memory',
          'size',
          'load',
          'load w/ source maps',
          'clients called / carried',
          'files beside (not in size)',
          'floor size',
          'floor load',
          'size / floor',
          'load / floor',
          `goal ≤ ${goalRatio}x`,
          'largest parts',
        ],
        [
          ['(baseline: empty module)', '', '', ms(bundles.baselineMsMedian), '', '', '', '', '', '', '', '', ''],
          ...bundles.bundles.map((bundle) => [
            bundle.name,
            `${bundle.memoryMb} MB`,
            kib(bundle.bytes),
            ms(bundle.loadMsMedian),
            ms(bundle.loadWithSourceMapsMsMedian),
            `${bundle.clientsCalled.join('+') || 'none'} / ${bundle.clientsCarried.join('+') || 'none'}`,
            // Beside the bundle, read only on the path that needs them: not in the bundle's size.
            bundle.sideFiles.map(({ file, bytes }) => `${file.replace(/^\.\//, '')} ${kib(bytes)}`).join(', ') || 'none',
            kib(bundle.floor.bytes),
            ms(bundle.floor.loadMsMedian),
            ratio(bundle.bytes, bundle.floor.bytes),
            ratio(bundle.loadMsMedian, bundle.floor.loadMsMedian),
            verdictOf(bundle),
            bundle.topContributors
              .slice(0, 3)
              .map((part) => `${part.source} ${kib(part.bytes)}`)
              .join(', '),
          ]),
        ],
      ),
    );
    if (bundles.missingEntries.length) out(`not bundled (entry file missing): ${bundles.missingEntries.join(', ')}`);
    for (const bundle of bundles.bundles) {
      goals.push({
        figure: `bundle ${bundle.name}`,
        value: `${kib(bundle.bytes)} (${ratio(bundle.bytes, bundle.floor.bytes)} of floor), load ${ms(bundle.loadMsMedian)} (${ratio(bundle.loadMsMedian, bundle.floor.loadMsMedian)})`,
        goal: `≤ ${goalRatio}x floor, no client it never calls`,
        met: verdictOf(bundle),
      });
    }
  }

  let acceptResult: Awaited<ReturnType<typeof import('./accept').benchAccept>>[number] | undefined;
  if (selected.has('accept')) {
    const { benchAccept } = await import('./accept');
    mkdirSync(resultsDirectory, { recursive: true });
    // Plain (two body values per recipient) and issue 24's rich body (the same recipients with a
    // broadcast-level image header and a URL button of their own), in one runtime, rounds alternating
    // (docs/PERFORMANCE.md 3c).
    out(section('3. Accept latency: 10,000-recipient send-template-broadcast via the local gateway (plain; 3c rich)'));
    const measured = await benchAccept({
      recipients: 10_000,
      rich: [false, true],
      rounds: numberArgument('accept-rounds') ?? 3,
      requestsPerRound: numberArgument('accept-requests') ?? 20,
      log: out,
      profileFile: (rich) => join(resultsDirectory, `${rich ? 'accept-rich' : 'accept'}.cpuprofile.json`),
    });
    loadBySection.accept = os.loadavg();
    const scenarios = [
      { key: 'accept', title: '3. Accept, plain: 10,000 recipients, two body values each', label: '10,000 recipients' },
      { key: 'acceptRich', title: '3c. Accept, rich: 10,000 recipients, broadcast image header + a URL button each', label: '10,000 rich recipients' },
    ] as const;
    for (const [index, scenario] of scenarios.entries()) {
      const a = measured[index]!;
      const rich = a.rich;
      if (!rich) acceptResult = a;
      results[scenario.key] = a;
      out(section(scenario.title));
      out(
        `body ${kib(a.bodyBytes)}; first request after start (module load, SDK clients) ${ms(a.firstRequestMs)}; load average at the end ${loadBySection.accept.map((value) => round(value, 2)).join(' / ')}`,
      );
      out(
        renderTable(
          ['', 'p50', 'p95', 'per round p50'],
          [
            ['accept (HTTP, gateway + handler)', ms(a.acceptP50), ms(a.acceptP95), a.rounds.map((r) => Math.round(r.accept.p50)).join(', ')],
            ['floor (parse + chunk + enqueue)', ms(a.floorP50), ms(a.floorP95), a.rounds.map((r) => Math.round(r.floor.p50)).join(', ')],
            ['ratio accept / floor', `${round(a.ratioP50, 2)}x`, `${round(a.ratioP95, 2)}x`, a.rounds.map((r) => `${round(r.ratioP50, 2)}x`).join(', ')],
            ['handler invoked directly (no HTTP)', ms(a.handlerP50), ms(a.handlerP95), a.rounds.map((r) => Math.round(r.handler.p50)).join(', ')],
            ['ratio handler / floor', `${round(a.handlerRatioP50, 2)}x`, `${round(a.handlerRatioP95, 2)}x`, ''],
            ['CPU per request: accept / floor (process user + system)', `${ms(a.acceptCpuP50)} / ${ms(a.floorCpuP50)}`, '', `${round(a.cpuRatioP50, 2)}x`],
            [
              'accept with Idempotency-Key',
              ms(a.withIdempotencyKeyP50),
              ms(a.withIdempotencyKeyP95),
              a.rounds.map((r) => Math.round(r.acceptWithIdempotencyKey.p50)).join(', '),
            ],
          ],
        ),
      );
      out('\nWhere the time goes: each step alone, same body, same services (median of 10):');
      out(
        renderTable(
          ['step', 'ms'],
          a.steps.map((step) => [step.step, round(step.ms, 1)]),
        ),
      );
      out(`\nCPU profile of 10 requests (${round(a.profile.sampledMs, 0)} ms sampled), by role:`);
      out(
        renderTable(
          ['role', 'ms', 'share'],
          a.profile.byRole.map((row) => [row.role, round(row.ms, 0), pct(row.share)]),
        ),
      );
      out('platform code by innermost component:');
      out(
        renderTable(
          ['component', 'ms', 'share'],
          a.profile.platformComponents.slice(0, 10).map((row) => [row.component, round(row.ms, 0), pct(row.share)]),
        ),
      );
      goals.push(
        { figure: `accept p50 (${scenario.label})`, value: ms(a.acceptP50), goal: 'none set', met: '-' },
        { figure: `accept p95 (${scenario.label})`, value: ms(a.acceptP95), goal: 'none set', met: '-' },
        ...(rich
          ? []
          : [
              { figure: 'accept / floor at p50 (issue 16)', value: `${round(a.ratioP50, 2)}x`, goal: '<= 1.5x', met: a.ratioP50 <= 1.5 ? 'yes' : 'no' },
              { figure: 'accept / floor at p95', value: `${round(a.ratioP95, 2)}x`, goal: '<= 2x', met: a.ratioP95 <= 2 ? 'yes' : 'no' },
            ]),
        { figure: `handler (no HTTP) / floor at p50 (${scenario.label})`, value: `${round(a.handlerRatioP50, 2)}x`, goal: '(diagnostic)', met: '-' },
        { figure: `accept / floor CPU per request at p50 (${scenario.label})`, value: `${round(a.cpuRatioP50, 2)}x`, goal: '(diagnostic)', met: '-' },
      );
    }
    const [plain, rich] = measured.map((result) => result.acceptP50) as [number, number];
    goals.push({
      figure: 'accept p50, rich / plain (issue 24)',
      value: `${round(rich / plain, 2)}x (${ms(rich)} / ${ms(plain)})`,
      goal: '(diagnostic: ± noise)',
      met: '-',
    });
  }

  let drainResults: Awaited<ReturnType<typeof import('./drain').benchDrain>> | undefined;
  if (selected.has('drain')) {
    out(section('4. Drain throughput against the sandbox (pace = sandbox limit per number)'));
    const { benchDrain } = await import('./drain');
    mkdirSync(resultsDirectory, { recursive: true });
    drainResults = await benchDrain({
      scenarios: [
        { label: '1 account @ 80/s, 2,000 recipients', accounts: 1, ratePerSecond: 80, recipientsPerAccount: 2_000 },
        { label: '1 account @ 1000/s, 10,000 recipients', accounts: 1, ratePerSecond: 1000, recipientsPerAccount: 10_000 },
        { label: '4 accounts @ 80/s, 2,000 recipients each', accounts: 4, ratePerSecond: 80, recipientsPerAccount: 2_000 },
        { label: '4 accounts @ 1000/s, 10,000 recipients each', accounts: 4, ratePerSecond: 1000, recipientsPerAccount: 10_000 },
      ],
      runsPerScenario: 3,
      budgetSeconds: 400,
      diagnosticEnvironment: { WORKER_MAX_IN_FLIGHT: '8' },
      profileScenario: '1 account @ 1000/s, 10,000 recipients',
      profileFile: join(resultsDirectory, 'drain.cpuprofile.json'),
      log: out,
    });
    results.drain = drainResults;
    loadBySection.drain = os.loadavg();
    out('');
    out(
      renderTable(
        ['scenario', 'runs', 'achieved/configured (median)', 'per account (median)', 'dup', 'missing at end', 'retries', 'ELU', 'complete'],
        drainResults.map((result) => [
          result.scenario.label,
          result.runs.length,
          pct(result.medianFraction),
          result.medianAccountFractions.map(pct).join(' '),
          result.runs.reduce((sum, run) => sum + run.aggregate.duplicates, 0),
          result.runs.reduce((sum, run) => sum + run.aggregate.lost, 0),
          result.runs.reduce((sum, run) => sum + run.accounts.reduce((inner, account) => inner + account.ledger.retries, 0), 0),
          result.runs.map((run) => round(run.eventLoopUtilization, 2)).join(' '),
          result.runs.map((run) => (run.completed ? 'yes' : run.stalled ? 'stuck' : 'timeout')).join(' '),
        ]),
      ),
    );
    for (const result of drainResults) {
      const errors = [...new Set(result.runs.flatMap((run) => run.invocations.errors))];
      if (errors.length) out(`  ${result.scenario.label}: ${errors.slice(0, 4).join(' | ')}`);
    }
    for (const profiled of drainResults.filter((result) => result.profile)) {
      const run = profiled.runs[0]!;
      out(`\nCPU profile of "${profiled.scenario.label}" run 1 (${run.aggregate.accepted} messages in ${round(run.wallSeconds, 1)} s), by role:`);
      out(
        renderTable(
          ['role', 'ms', 'share', 'ms per message'],
          profiled.profile!.byRole.map((row) => [row.role, round(row.ms, 0), pct(row.share), round(row.ms / Math.max(1, run.aggregate.accepted), 3)]),
        ),
      );
    }
    for (const result of drainResults) {
      goals.push({
        figure: `drain ${result.scenario.label}`,
        value: `${pct(result.medianFraction)} (accounts ${result.medianAccountFractions.map(pct).join(', ')})`,
        goal: '>= 95% of configured',
        met: result.medianFraction >= 0.95 && result.medianAccountFractions.every((fraction) => fraction >= 0.95) ? 'yes' : 'no',
      });
      goals.push({
        figure: `exactly once, ${result.scenario.label}`,
        value: `dup ${result.runs.reduce((sum, run) => sum + run.aggregate.duplicates, 0)}, missing ${result.runs.reduce((sum, run) => sum + run.aggregate.lost, 0)}`,
        goal: '0 duplicates, 0 missing',
        met: result.allExactlyOnce ? 'yes' : 'no',
      });
    }
  }

  if (selected.has('loop')) {
    out(section('4b3. Delivery loop: last send of a 10,000-recipient job to every recipient delivered; Meta event to customer receiver'));
    const { benchDeliveryLoop } = await import('./delivery-loop');
    const loop = await benchDeliveryLoop({ recipients: 10_000, timeLimitSeconds: 600, log: out });
    results.deliveryLoop = loop;
    loadBySection.loop = os.loadavg();
    out(
      renderTable(
        ['figure', 'value'],
        [
          ['recipients delivered within the time limit', loop.deliveredWithinLimit ? 'all' : 'no'],
          ['accept to every recipient delivered', `${round(loop.drainSeconds, 1)} s`],
          ['last send to every recipient delivered', `${round(loop.lastSendToAllDeliveredSeconds, 1)} s`],
          [
            'Meta webhook posted to customer receiver, p50 / p99',
            `${ms(loop.metaToReceiverMs.p50)} / ${ms(loop.metaToReceiverMs.p99)} (${loop.metaToReceiverMs.samples} events)`,
          ],
        ],
      ),
    );
    goals.push({
      figure: 'last send -> all 10,000 delivered',
      value: `${round(loop.lastSendToAllDeliveredSeconds, 1)} s`,
      goal: 'none set (measured)',
      met: '-',
    });
  }

  if (selected.has('latency')) {
    out(section("4e. Drain at Meta's latency (sandbox log-normal p50 200 ms / p99 1.5 s, 0.5 % answers lost)"));
    const { benchDrainLatency } = await import('./drain-latency');
    const latency = await benchDrainLatency({
      recipients: numberArgument('latency-recipients') ?? 10_000,
      withFourFast: process.argv.includes('--latency-four-fast'),
      storeFault: process.argv.includes('--latency-store-fault'),
      storeFaultRate: numberArgument('latency-store-fault-rate'),
      budgetSeconds: 900,
      log: out,
    });
    results.latency = latency.results;
    loadBySection.latency = os.loadavg();
    out('');
    out(
      renderTable(
        ['scenario', 'achieved/configured', 'per account', 'dup', 'lost', 'unknown', 'injected timeouts', 'retries', 'ELU', 'complete'],
        latency.results.map((result) => [
          result.scenario.label,
          pct(result.medianFraction),
          result.medianAccountFractions.map(pct).join(' '),
          result.runs.reduce((sum, run) => sum + run.aggregate.duplicates, 0),
          result.runs.reduce((sum, run) => sum + run.aggregate.lost, 0),
          result.runs.reduce((sum, run) => sum + run.accounts.reduce((inner, account) => inner + account.ledger.unknown, 0), 0),
          result.runs.reduce((sum, run) => sum + run.accounts.reduce((inner, account) => inner + account.answersLost, 0), 0),
          result.runs.reduce((sum, run) => sum + run.accounts.reduce((inner, account) => inner + account.ledger.retries, 0), 0),
          result.runs.map((run) => round(run.eventLoopUtilization, 2)).join(' '),
          result.runs.map((run) => (run.completed ? 'yes' : run.stalled ? 'stuck' : 'timeout')).join(' '),
        ]),
      ),
    );
    for (const result of latency.results) {
      const errors = [...new Set(result.runs.flatMap((run) => run.invocations.errors))];
      if (errors.length) out(`  ${result.scenario.label}: ${errors.slice(0, 4).join(' | ')}`);
    }
    goals.push(...latency.goals);
  }

  const fifthIsolation = process.argv.find((argument) => argument.startsWith('--fifth-isolation='))?.slice('--fifth-isolation='.length);
  if (selected.has('fifth') && fifthIsolation === 'threads') {
    const drainingOrganizations = numberArgument('fifth-orgs') ?? 4;
    const environments = numberArgument('fifth-environments') ?? 2;
    out(
      section(
        `4i. The same in threads isolation: each function in its own thread (${environments} environments at most), ${drainingOrganizations} accounts draining`,
      ),
    );
    const { benchFifthThreads } = await import('./fifth-threads');
    const { fifthOrganizationRows } = await import('./fifth-organization');
    const run = await benchFifthThreads({
      drainingOrganizations,
      totalRecipients: numberArgument('fifth-recipients') ?? 40_000,
      maxInstancesPerFunction: environments,
      log: out,
    });
    loadBySection.fifth = os.loadavg();
    const f = run.fifth;
    results.fifthThreads = {
      ...run,
      fifth: { ...f, sends: f.sends.map(({ sentAt, status, answerMs, toSandboxMs }) => ({ sentAt, status, answerMs, toSandboxMs })) },
    };
    out(
      renderTable(
        ['figure', 'value'],
        [
          [
            `${drainingOrganizations} drains: achieved / configured (aggregate)`,
            `${pct(run.drainFraction)} (accounts ${run.accountFractions.map(pct).join(', ')})`,
          ],
          [`${drainingOrganizations} drains: dup / lost, completed`, `${run.duplicates} / ${run.lost}, ${run.completed}`],
          ...fifthOrganizationRows(f),
          [
            "  sends after the first 10 s (past the drains' accepts and cold starts): p50 / p99",
            `${ms(run.steady.p50Ms)} / ${ms(run.steady.p99Ms)} (${run.steady.sends} sends)`,
          ],
          ['busiest threads (ELU since boot)', run.threads.map((thread) => `${thread.name} ${round(thread.utilization, 2)}`).join(', ')],
          [
            'wall, load average after',
            `${round(run.wallSeconds, 1)} s, ${os
              .loadavg()
              .map((value) => round(value, 2))
              .join(' / ')}`,
          ],
        ],
      ),
    );
    goals.push({
      figure: `fifth organization's single message beside ${drainingOrganizations} draining organizations, threads isolation, accept -> sandbox`,
      value: `p50 ${Math.round(f.p50Ms)} ms, p99 ${Math.round(f.p99Ms)} ms; after the first 10 s p99 ${Math.round(run.steady.p99Ms)} ms (${f.arrived} of ${f.sends.length}; drains ${pct(run.drainFraction)})`,
      goal: 'p99 <= 2 s, every send answered 200 and arrived',
      met: f.arrived === f.sends.length && f.p99Ms <= 2_000 ? 'yes' : 'no',
    });
  } else if (selected.has('fifth')) {
    const drainingOrganizations = numberArgument('fifth-orgs') ?? 4;
    out(
      section(
        `4i. One more organization's single message while ${drainingOrganizations} accounts drain at Meta's latency (issue 28 item 5; the single-message lane, issue 40)`,
      ),
    );
    const { benchFifthOrganization, fifthOrganizationRows } = await import('./fifth-organization');
    const fifth = await benchFifthOrganization({ totalRecipients: numberArgument('fifth-recipients') ?? 40_000, drainingOrganizations, log: out });
    loadBySection.fifth = os.loadavg();
    results.fifth = {
      drain: fifth.drain,
      fifth: fifth.fifth && {
        ...fifth.fifth,
        sends: fifth.fifth.sends.map(({ sentAt, status, answerMs, toSandboxMs }) => ({ sentAt, status, answerMs, toSandboxMs })),
      },
    };
    const run = fifth.drain.runs[0];
    if (run && fifth.fifth) {
      const f = fifth.fifth;
      out(
        renderTable(
          ['figure', 'value'],
          [
            [
              `${drainingOrganizations} drains: achieved / configured (aggregate)`,
              `${pct(run.aggregate.fraction)} (accounts ${run.accounts.map((account) => pct(account.fraction)).join(', ')})`,
            ],
            [`${drainingOrganizations} drains: dup / lost`, `${run.aggregate.duplicates} / ${run.aggregate.lost}`],
            ...fifthOrganizationRows(f),
            [
              `${drainingOrganizations} drains: first / last message of each account after the first of all`,
              run.accounts
                .map(
                  (account) =>
                    `${round((account.firstAt - Math.min(...run.accounts.map((a) => a.firstAt))) / 1000, 1)} / ${round((account.lastAt - Math.min(...run.accounts.map((a) => a.firstAt))) / 1000, 1)} s`,
                )
                .join(', '),
            ],
            [
              'ELU, load average after',
              `${round(run.eventLoopUtilization, 2)}, ${os
                .loadavg()
                .map((value) => round(value, 2))
                .join(' / ')}`,
            ],
          ],
        ),
      );
      const errors = [...new Set(run.invocations.errors)];
      if (errors.length) out(`  invocation errors: ${errors.slice(0, 4).join(' | ')}`);
    }
    goals.push(...fifth.goals);
  }

  if (selected.has('scale')) {
    out(section('Scale simulation: 1,000 organizations on virtual time (issue 40 item 4; test/support/scale/)'));
    const { benchScale } = await import('./scale/scale-section');
    const variantArgument = process.argv.find((argument) => argument.startsWith('--scale-variant='))?.slice('--scale-variant='.length);
    const scale = await benchScale({
      seconds: numberArgument('scale-seconds'),
      seed: numberArgument('scale-seed'),
      variant: variantArgument === 'lanes' ? 'lanes' : 'today',
      organizations: numberArgument('scale-organizations'),
      accounts: numberArgument('scale-accounts'),
      campaigns: numberArgument('scale-campaigns'),
      campaignMembers: numberArgument('scale-campaign-members'),
      singlesPerSecond: numberArgument('scale-singles'),
      log: out,
    });
    loadBySection.scale = os.loadavg();
    results.scale = scale.figures;
    goals.push(...scale.goals);
  }
  if (selected.has('hot')) {
    const recipients = numberArgument('hot-recipients') ?? 3_000;
    out(section(`7. Hottest DynamoDB items: one ${recipients}-recipient broadcast at 1,000/s with sent, delivered and read for everyone (docs/SCALE.md)`));
    const { benchHotItems } = await import('./scale-hot-items');
    const hot = await benchHotItems({
      recipients,
      statusesPerPost: numberArgument('hot-statuses-per-post') ?? 100,
      timeLimitSeconds: numberArgument('hot-time-limit') ?? 300,
      log: out,
    });
    loadBySection.hot = os.loadavg();
    results.hot = hot;
    out(
      `${hot.run.sends.messages} messages sent at ${round(hot.achievedPerSecond, 0)}/s (${pct(hot.achievedPerSecond / 1000)} of 1,000/s); ${hot.run.statuses} statuses in ${hot.run.webhookPosts} POSTs; ${hot.run.completed ? 'every recipient READ' : 'NOT every recipient read'}; load average after ${loadBySection.hot.map((value) => round(value, 2)).join(' / ')}`,
    );
    const rows = (partition: boolean) =>
      hot.kinds
        .filter((kind) => kind.partition === partition)
        .slice(0, 25)
        .map((kind) => [
          kind.kind,
          kind.keys,
          kind.hottest.key.length > 70 ? `${kind.hottest.key.slice(0, 67)}...` : kind.hottest.key,
          kind.hottest.writes,
          round(kind.writesPer1000Messages, 1),
          round(kind.unitsPer1000Messages, 1),
          `${kind.hottest.peakWritesPerSecond} (${kind.hottest.peakUnitsPerSecond} WCU)`,
          kind.hottest.refused,
          round(kind.hottest.activeSeconds, 1),
        ]);
    const headers = [
      'kind',
      'keys',
      'hottest key',
      'writes',
      'writes/s at 1,000 msg/s',
      'WCU/s at 1,000 msg/s',
      'peak writes/s measured',
      'refused',
      'active s',
    ];
    out('Items (the most written item of each kind):');
    out(renderTable(headers, rows(false)));
    out('Partitions (every item of one partition key together; DynamoDB allows 1,000 WCU/s per partition):');
    out(renderTable(headers, rows(true)));
    const hottest = hot.kinds.filter((kind) => kind.partition).sort((a, b) => b.unitsPer1000Messages - a.unitsPer1000Messages)[0];
    if (hottest) {
      goals.push({
        figure: 'hottest partition key at 1,000 msg/s of one account (writes/s, WCU/s)',
        value: `${hottest.kind}: ${round(hottest.writesPer1000Messages, 0)} writes/s, ${round(hottest.unitsPer1000Messages, 0)} WCU/s`,
        goal: '< 1,000 WCU/s per partition',
        met: hottest.unitsPer1000Messages < 1000 ? 'yes' : 'no',
      });
    }
  }

  if (selected.has('pacing')) {
    out(section('4b. Why a drain at 80/s can fall short: in-flight sends per worker x rate-limit hold'));
    out('1 account @ 80/s, 2,000 recipients, one run each; production defaults are the first drain scenario above.');
    const { benchDrain } = await import('./drain');
    const pacing = await benchDrain({
      scenarios: [
        { label: 'WORKER_MAX_IN_FLIGHT=8', accounts: 1, ratePerSecond: 80, recipientsPerAccount: 2_000, environment: { WORKER_MAX_IN_FLIGHT: '8' } },
        {
          label: 'WORKER_MAX_IN_FLIGHT=8, WORKER_RATE_LIMIT_HOLD_MS=50',
          accounts: 1,
          ratePerSecond: 80,
          recipientsPerAccount: 2_000,
          environment: { WORKER_MAX_IN_FLIGHT: '8', WORKER_RATE_LIMIT_HOLD_MS: '50' },
        },
      ],
      runsPerScenario: 1,
      budgetSeconds: 200,
      log: out,
    });
    results.pacing = pacing;
    loadBySection.pacing = os.loadavg();
    out(
      renderTable(
        ['variant (1 account @ 80/s)', 'achieved/configured', 'refused sends retried', 'ELU'],
        pacing.map((result) => [
          result.scenario.label,
          pct(result.medianFraction),
          result.runs[0]?.accounts[0]?.ledger.retries ?? '',
          round(result.runs[0]?.eventLoopUtilization ?? Number.NaN, 2),
        ]),
      ),
    );
    for (const result of pacing) {
      goals.push({
        figure: `drain 1 account @ 80/s, ${result.scenario.label} (diagnostic)`,
        value: pct(result.medianFraction),
        goal: '(diagnostic)',
        met: '-',
      });
    }
  }

  if (selected.has('events')) {
    out(section('4b2. Delivery events: applied per second by the processor (3 events per recipient)'));
    const { benchDeliveryEvents } = await import('./delivery-events');
    const events = await benchDeliveryEvents({ recipients: 3_000, eventsPerBody: 100, concurrency: 4, timeLimitSeconds: 240, log: out });
    results.deliveryEvents = events;
    loadBySection.events = os.loadavg();
    goals.push({
      figure: 'delivery events applied/s, local (3,000 recipients x 3; issue 28)',
      value: `${int(events.appliedPerSecond)}/s`,
      goal: '>= 3,000/s, tally exact',
      met: !events.exact ? 'no (tally not exact)' : events.appliedPerSecond >= 3_000 ? 'yes' : 'no',
    });
  }

  if (selected.has('wrapper')) {
    out(section('4g. /upstream wrapper overhead: added latency over calling the sandbox directly, tenancy caches off (before) and on'));
    const { runWrapperLatencyBench, describeWrapperLatency } = await import('./wrapper-latency');
    // One token allows 600 requests a minute: one client stays under it, 20 clients have a token each.
    const singleRequests = numberArgument('wrapper-single-requests') ?? 400;
    const concurrentRequests = numberArgument('wrapper-requests') ?? 2_000;
    const runs: Record<string, Awaited<ReturnType<typeof runWrapperLatencyBench>>> = {};
    for (const [name, concurrency, requests] of [
      ['single', 1, singleRequests],
      ['concurrent', 20, concurrentRequests],
    ] as const) {
      for (const cachesOff of [true, false]) {
        const result = await runWrapperLatencyBench({ requests, concurrency, cachesOff });
        runs[`${name}${cachesOff ? 'Before' : 'After'}`] = result;
        out(describeWrapperLatency(result));
        out(
          `load average ${os
            .loadavg()
            .map((value) => round(value, 2))
            .join(' / ')}`,
        );
      }
    }
    results.wrapper = runs;
    loadBySection.wrapper = os.loadavg();
    const single = { before: runs.singleBefore!, after: runs.singleAfter! };
    const concurrent = { before: runs.concurrentBefore!, after: runs.concurrentAfter! };
    const ratio = (result: typeof single.after) => result.wrapper.p50 / result.direct.p50;
    goals.push(
      {
        figure: 'wrapper added p50, 1 client',
        value: `${round(single.after.addedMs.p50, 2)} ms (caches off: ${round(single.before.addedMs.p50, 2)} ms; direct p50 ${round(single.after.direct.p50, 2)} ms; of which the rate-limit update alone p50 ${round(single.after.rateLimitUpdate.p50, 2)} ms)`,
        goal: '<= 2 ms',
        met: single.after.addedMs.p50 <= 2 ? 'yes' : 'no',
      },
      {
        figure: 'wrapped p50 / direct p50, 20 clients',
        value: `${round(ratio(concurrent.after), 2)}x: ${round(concurrent.after.wrapper.p50, 1)} / ${round(concurrent.after.direct.p50, 1)} ms (caches off: ${round(ratio(concurrent.before), 2)}x)`,
        goal: '<= 3x',
        met: ratio(concurrent.after) <= 3 ? 'yes' : 'no',
      },
      {
        figure: 'DynamoDB calls per wrapped request',
        value: `${round(concurrent.after.dynamoDbCallsPerRequest, 2)} (caches off: ${round(concurrent.before.dynamoDbCallsPerRequest, 2)})`,
        goal: 'none set',
        met: '-',
      },
    );
  }

  if (selected.has('sdk')) {
    out(section('SDK per-call cost: client CPU per DynamoDB call (µs), a stub server in another process'));
    const { benchSdkCallOverhead } = await import('./sdk-call-overhead');
    const variantsNamed = process.argv.find((argument) => argument.startsWith('--sdk-variants='))?.slice('--sdk-variants='.length);
    const sdk = await benchSdkCallOverhead({
      calls: numberArgument('sdk-calls') ?? 1_000,
      rounds: numberArgument('sdk-rounds') ?? 3,
      ...(variantsNamed ? { variantsNamed } : {}),
    });
    results.sdk = sdk;
    loadBySection.sdk = os.loadavg();
    const rows = Object.entries(sdk.microsPerCall).map(([variant, byOperation]) => [
      variant,
      int(byOperation.PutItem),
      int(byOperation.UpdateItem),
      int(byOperation.GetItem),
      sdk.maxUserAgentBytes[variant] ?? '',
    ]);
    out(renderTable(['client', 'PutItem µs', 'UpdateItem µs', 'GetItem µs', 'max User-Agent B'], rows));
    out(
      renderTable(
        ['client', 'SendMessage µs'],
        Object.entries(sdk.sqsMicrosPerSend).map(([variant, micros]) => [variant, int(micros)]),
      ),
    );
    out(
      `${sdk.calls} calls x ${sdk.rounds} rounds per cell, ${sdk.concurrency} in flight, median of rounds; load average ${os
        .loadavg()
        .map((value) => round(value, 2))
        .join(' / ')}`,
    );
    const measured = Object.entries(sdk.microsPerCall);
    const before = measured[0]?.[1];
    const after = (measured.find(([variant]) => variant.includes('as the functions build it')) ?? measured[1])?.[1];
    const mean = (byOperation: typeof before) => (byOperation!.PutItem + byOperation!.UpdateItem + byOperation!.GetItem) / 3;
    goals.push({
      figure: 'DynamoDB client CPU per call, before / as built now',
      value: `${int(mean(before))} / ${int(mean(after))} µs`,
      goal: '(diagnostic)',
      met: '-',
    });
  }

  if (selected.has('webhook')) {
    out(section('4e. Meta webhook endpoint: signed status batches accepted per second (10 concurrent senders)'));
    const { runWebhookIngestBench, describeWebhookIngest } = await import('./webhook-ingest');
    const webhook = await runWebhookIngestBench({ requests: 3_000, concurrency: 10 });
    results.webhook = webhook;
    loadBySection.webhook = os.loadavg();
    out(describeWebhookIngest(webhook));
    goals.push({
      figure: 'webhook batches accepted/s, p50 / p99 (10 senders)',
      value: `${Math.round(webhook.acceptedPerSecond)}/s, ${round(webhook.p50, 1)} / ${round(webhook.p99, 1)} ms`,
      goal: webhook.goal.text,
      met: webhook.goal.met ? 'met' : 'not met',
    });
  }

  if (selected.has('rules')) {
    out(section('Send rules: the send-window split per recipient, frequency-cap reservations (docs/CAMPAIGNS.md "Respecting the people on the list")'));
    const { benchSendRules } = await import('./send-rules');
    const rules = await benchSendRules({ chunks: numberArgument('rules-chunks'), reservations: numberArgument('rules-reservations') });
    results.rules = rules.result;
    loadBySection.rules = os.loadavg();
    out(
      renderTable(
        ['figure', 'value', 'goal', 'met'],
        rules.goals.map((row) => [row.figure, row.value, row.goal, row.met]),
      ),
    );
    goals.push(...rules.goals);
  }

  if (selected.has('split')) {
    out(section('4j. Meta webhook endpoint: CPU of one 4 MiB signed batch (signature, split into queue messages, encoding)'));
    const { benchWebhookSplit } = await import('./webhook-split');
    const split = await benchWebhookSplit({ runs: numberArgument('split-runs') ?? 5 });
    results.split = split;
    loadBySection.split = os.loadavg();
    out(
      renderTable(
        ['batch', 'bytes', 'queue messages', 'CPU median ms', 'CPU max ms', 'largest message B'],
        split.shapes.map((shape) => [
          shape.shape,
          shape.bodyBytes,
          shape.parts,
          round(shape.cpuMedianMs, 1),
          round(shape.cpuMaxMs, 1),
          shape.largestMessageBytes,
        ]),
      ),
    );
    const worst = Math.max(...split.shapes.map((shape) => shape.cpuMedianMs));
    // Lambda's CPU share is memory / 1,769 MB of one vCPU (docs/PERFORMANCE.md "4j").
    goals.push({
      figure: 'meta-webhook CPU for a 4 MiB batch here / at 256 MB on Lambda (estimate)',
      value: `${round(worst, 0)} ms / ~${round((worst * 1769) / 256 / 1000, 1)} s`,
      goal: '(sizing)',
      met: '-',
    });
  }

  if (selected.has('webhooks')) {
    out(section('4f. Customer webhooks: events delivered per second to a local receiver (2,000 queued events, one endpoint)'));
    const { benchCustomerWebhooks } = await import('./customer-webhooks');
    const webhooks = await benchCustomerWebhooks({ events: 2_000 });
    results.webhooks = webhooks;
    loadBySection.webhooks = os.loadavg();
    out(
      renderTable(
        ['figure', 'value'],
        [
          ['events delivered per second (dispatcher draining the queue, signatures verified)', round(webhooks.deliveredPerSecond, 1)],
          ['delivered / queued', `${webhooks.delivered} / ${webhooks.events}${webhooks.truncated ? ' (stopped at the time bound)' : ''}`],
          ['delay from the dispatcher start to receipt, p50 / p99', `${ms(webhooks.delayMs.p50)} / ${ms(webhooks.delayMs.p99)}`],
          ['events published per second (event log + queue, 20 concurrent)', round(webhooks.publishedPerSecond, 1)],
          ['bad signatures at the receiver', webhooks.badSignatures],
        ],
      ),
    );
    goals.push({
      figure: 'customer webhooks delivered/s to a local receiver',
      value: `${round(webhooks.deliveredPerSecond, 1)}/s`,
      goal: 'none set',
      met: '-',
    });
  }

  if (selected.has('fairness')) {
    out(
      section(
        "4h. Customer webhooks' fairness: another organization's events while one has 10 dead endpoints and redelivers at the highest rate, or 10 endpoints answering 200 after 4.9 s",
      ),
    );
    const { benchCustomerWebhookFairness, FAIRNESS_GOALS_MS } = await import('./customer-webhook-fairness');
    const fairness = await benchCustomerWebhookFairness();
    results.fairness = fairness;
    loadBySection.fairness = os.loadavg();
    const row = (name: string, run: NonNullable<typeof fairness.alone>) => [
      name,
      `${run.delivered} / ${run.published}`,
      ms(run.delayMs.p50),
      ms(run.delayMs.p99),
      ms(run.delayMs.max),
      `${run.redeliveriesGranted} (${run.eventsRedelivered} events)`,
      Object.entries(run.redeliveriesRefused)
        .map(([answer, count]) => `${answer}: ${count}`)
        .join(', ') || '-',
      run.deadEndpointCalls,
      run.organizationAPublished > 0 ? `${run.organizationAPublished} events, ${run.organizationAAnswered} answered` : '-',
      run === fairness.withSlowOrganization
        ? `<= ${FAIRNESS_GOALS_MS.slow / 1000} s`
        : run === fairness.withDeadOrganization
          ? `<= ${FAIRNESS_GOALS_MS.dead / 1000} s`
          : '-',
    ];
    out(
      renderTable(
        [
          "B's events (50 over 20 s)",
          'delivered',
          'p50',
          'p99',
          'max',
          "A's redeliveries granted",
          'refused',
          "calls to A's endpoints",
          "A's events (slow case)",
          'p99 goal',
        ],
        [
          row('A: 10 dead endpoints, redelivering every 2 s', fairness.withDeadOrganization!),
          row('A: 10 endpoints answering 200 after 4.9 s, 4 events every 2 s to all 10', fairness.withSlowOrganization!),
          row('reference: A idle', fairness.alone!),
        ],
      ),
    );
    const p99 = fairness.withDeadOrganization!.delayMs.p99;
    goals.push({
      figure: "customer events of another organization, p99, one organization's endpoints dead (issue 23)",
      value: ms(p99),
      goal: '<= 5 s',
      met: p99 <= FAIRNESS_GOALS_MS.dead ? 'yes' : 'no',
    });
    const slowP99 = fairness.withSlowOrganization!.delayMs.p99;
    goals.push({
      figure: "customer events of another organization, p99, one organization's 10 endpoints answering 200 after 4.9 s (issue 35)",
      value: ms(slowP99),
      goal: '<= 2 s',
      met: slowP99 <= FAIRNESS_GOALS_MS.slow ? 'yes' : 'no',
    });
  }

  if (selected.has('load')) {
    const rate = numberArgument('load-rate') ?? 200;
    const seconds = numberArgument('load-seconds') ?? 60;
    const isolation = process.argv.includes('--load-isolation=threads') ? 'threads' : 'inline';
    out(
      section(
        `4d. Mixed load: open loop at ${rate} requests/s for ${seconds} s (status, lists, small broadcasts, free-form, v1, /upstream), ${isolation} isolation`,
      ),
    );
    const { benchLoad } = await import('./load');
    const load = await benchLoad({ ratePerSecond: rate, seconds, isolation, log: out });
    results.load = load;
    loadBySection.load = os.loadavg();
    out(
      `achieved ${round(load.achievedPerSecond, 1)} answers/s of ${rate} targeted; p50 ${ms(load.p50)}, p99 ${ms(load.p99)}; ` +
        `generator start lag p99 ${ms(load.startLagP99Ms)}; load average after: ${os
          .loadavg()
          .map((value) => round(value, 2))
          .join(' / ')}`,
    );
    out(
      `status codes: ${Object.entries(load.statuses)
        .map(([status, count]) => `${status}: ${count}`)
        .join(', ')}; intended 429s ${load.intended429}; errors ${load.errors} (timed out ${load.timedOut})`,
    );
    out(
      renderTable(
        ['class', 'requests', 'p50', 'p99', 'status codes', 'intended 429', 'errors'],
        Object.entries(load.byClass).map(([name, figures]) => [
          name,
          figures.requests,
          ms(figures.p50),
          ms(figures.p99),
          Object.entries(figures.statuses)
            .map(([status, count]) => `${status}: ${count}`)
            .join(', '),
          figures.intended429,
          figures.errors,
        ]),
      ),
    );
    for (const sample of load.errorSamples) out(`  error: ${sample}`);
    const atGoalSetting = rate >= 200 && seconds >= 60;
    goals.push({
      figure: `mixed load ${rate}/s for ${seconds} s`,
      value: `${round(load.achievedPerSecond, 1)}/s, p99 ${ms(load.p99)}, errors ${load.errors}`,
      goal: load.goal.text,
      met: load.goal.met ? 'met' : atGoalSetting ? 'not met' : 'not met (run below the goal setting)',
    });
  }

  if (selected.has('cores')) {
    out(section('4f. Both cores: drain through the runtime in threads isolation (fast sandbox)'));
    const { benchLocalCores } = await import('./local-cores');
    const recipients = numberArgument('cores-recipients') ?? 10_000;
    const ratePerSecond = numberArgument('cores-rate') ?? 1_000;
    const instancesArgument = process.argv.find((argument) => argument.startsWith('--cores-instances='));
    const instanceCounts = instancesArgument ? instancesArgument.slice('--cores-instances='.length).split(',').map(Number) : [1, 2];
    out(`1 account @ ${ratePerSecond}/s, ${recipients} recipients; one run per environments-per-function setting (${instanceCounts.join(', ')}).`);
    const runs = [];
    for (const maxInstancesPerFunction of instanceCounts) runs.push(await benchLocalCores({ ratePerSecond, recipients, maxInstancesPerFunction, log: out }));
    results.cores = runs;
    loadBySection.cores = os.loadavg();
    for (const run of runs) {
      out(
        `\nEvent-loop utilisation per thread over the drain, ${run.maxInstancesPerFunction} environment(s) per function (load average ${run.loadAverage.map((value) => round(value, 2)).join(' / ')}):`,
      );
      out(
        renderTable(
          ['thread', 'id', 'ELU', 'active ms', 'CPU ms', 'CPU (share of a core)'],
          run.threads
            .filter((thread) => thread.activeMs > 1)
            .map((thread) => [
              thread.name,
              thread.threadId,
              pct(thread.utilization),
              int(thread.activeMs),
              thread.cpuMs === undefined ? '-' : int(thread.cpuMs),
              thread.cpuShare === undefined ? '-' : pct(thread.cpuShare),
            ]),
        ),
      );
    }
    const production = runs[0]!;
    const label = `${recipients} @ ${ratePerSecond}/s, threads, ${production.maxInstancesPerFunction} env/function`;
    goals.push({
      figure: `local drain, ${label}`,
      value: `${pct(production.fraction)} (dup ${production.duplicates}, lost ${production.lost})`,
      goal: '>= 90% of configured, exactly once',
      met: production.fraction >= 0.9 && production.duplicates === 0 && production.lost === 0 ? 'yes' : 'no',
    });
    goals.push({
      figure: `chunk worker CPU per message (its threads' CPU time), ${label}`,
      value: `${int(production.chunkWorkerCpuMicrosPerMessage)} µs`,
      goal: '<= 250 µs',
      met: production.chunkWorkerCpuMicrosPerMessage <= 250 ? 'yes' : 'no',
    });
    for (const run of runs.slice(1)) {
      goals.push({
        figure: `local drain, threads, ${run.maxInstancesPerFunction} env/function (comparison)`,
        value: `${pct(run.fraction)}, chunk worker ${int(run.chunkWorkerCpuMicrosPerMessage)} µs/message`,
        goal: '(comparison)',
        met: '-',
      });
    }
  }

  if (acceptResult && drainResults) {
    out(section('5. AWS cost of one 10,000-recipient broadcast (us-east-1 list prices, 2024)'));
    const { estimateCost } = await import('./cost');
    const estimates = [];
    for (const [rate, label] of [
      [80, '1 account @ 80/s, 2,000 recipients'],
      [1000, '1 account @ 1000/s, 10,000 recipients'],
    ] as const) {
      const scenario = drainResults.filter((result) => result.scenario.label.startsWith(label));
      const run = scenario.flatMap((result) => result.runs).find((candidate) => candidate.completed) ?? scenario[0]?.runs[0];
      if (!run) continue;
      const estimate = estimateCost({
        ratePerSecond: rate,
        recipients: 10_000,
        measured: run.requestCounts,
        measuredRecipients: run.accounts[0]!.uniqueRecipients || 1,
        measuredInvocations: run.invocations.count,
        acceptMs: acceptResult.handlerP50,
      });
      estimates.push({ ...estimate, basedOn: label });
      out(`\nAt ${rate} msg/s (counts from "${label}"${run.completed ? '' : ', INCOMPLETE run'}):`);
      out(
        renderTable(
          ['item', 'quantity', 'USD', 'arithmetic'],
          estimate.lines.map((line) => [line.item, `${round(line.quantity, 2)} ${line.unit}`, `$${line.usd.toFixed(6)}`, line.arithmetic]),
        ),
      );
      out(`total $${estimate.totalUsd.toFixed(4)} per 10,000 recipients ($${estimate.perThousandRecipientsUsd.toFixed(5)} per 1,000)`);
      out(
        renderTable(
          ['DynamoDB requests (scaled to 10,000)', 'calls', 'WRU', 'RRU'],
          estimate.dynamoDbBreakdown.map((row) => [row.label, row.calls, row.writeUnits, row.readUnits]),
        ),
      );
    }
    results.cost = estimates;
  }

  if (selected.has('cost')) {
    const recipients = numberArgument('cost-recipients') ?? 2_000;
    const statusesPerPost = numberArgument('cost-statuses-per-post') ?? 100;
    out(
      section(
        `5b. AWS cost of one 10,000-recipient broadcast incl. its delivery events (sent, delivered, read), counted on ${recipients} recipients at 1000/s`,
      ),
    );
    const { benchBroadcastCosts } = await import('./broadcast-cost');
    const { estimateBroadcastCost } = await import('./cost');
    // The same recipients three times in one runtime: a new audience, then a known one (identity
    // pairs stored), then the known one with Meta posting one status per POST (as it does when not under load).
    const runs = await benchBroadcastCosts({
      recipients,
      ratePerSecond: 1000,
      phases: [{ statusesPerPost }, { statusesPerPost }, { statusesPerPost: 1 }],
      timeLimitSeconds: numberArgument('cost-time-limit') ?? 300,
      log: out,
    });
    loadBySection.cost = os.loadavg();
    const estimates = runs.map((run) => ({ run, estimate: estimateBroadcastCost(run) }));
    results.costWithEvents = estimates.map(({ run, estimate }) => ({ run: { ...run, requestCounts: undefined }, estimate }));
    for (const { run, estimate } of estimates) {
      out(`\n${run.audience} audience, ${run.statuses} statuses in ${run.webhookPosts} POSTs (up to ${run.statusesPerPost} per POST):`);
      out(
        renderTable(
          ['item', 'quantity', 'USD', 'arithmetic'],
          estimate.lines.map((line) => [line.item, `${round(line.quantity, 2)} ${line.unit}`, `$${line.usd.toFixed(6)}`, line.arithmetic]),
        ),
      );
      out(`total $${estimate.totalUsd.toFixed(4)} per 10,000 recipients incl. delivery events`);
      out(
        `Writes per recipient (${round(estimate.writeUnitsPerRecipient, 2)} WRU in all; ${run.eventInvocations.failedRecords} webhook records were applied again after emulator timeouts, their writes included):`,
      );
      out(
        renderTable(
          ['function', 'request', 'what it is for', 'calls', 'WRU', 'WRU per recipient'],
          estimate.writes.map((row) => [row.scope, row.label, row.purpose, row.calls, round(row.writeUnits, 0), round(row.perRecipient, 3)]),
        ),
      );
    }
    const incomplete = (run: { completed: boolean }) => (run.completed ? '' : ' (INCOMPLETE run)');
    for (const { run, estimate } of estimates) {
      const posts = run.statusesPerPost === 1 ? 'one status per POST' : `~${Math.round(run.statuses / Math.max(1, run.webhookPosts))} statuses per POST`;
      const limit = run.statusesPerPost === 1 ? 0.03 : 0.02;
      goals.push({
        figure: `cost of 10,000 recipients incl. delivery events (1000/s), ${run.audience} audience, ${posts}`,
        value: `$${estimate.totalUsd.toFixed(4)}${incomplete(run)}`,
        goal: `<= $${limit.toFixed(2)}`,
        met: run.completed && estimate.totalUsd <= limit ? 'yes' : 'no',
      });
    }
    for (const { run, estimate } of estimates.slice(0, 2)) {
      goals.push({
        figure: `DynamoDB write units per recipient incl. 3 Meta events (issue 28), ${run.audience} audience`,
        value: `${round(estimate.writeUnitsPerRecipient, 2)} WRU${incomplete(run)}`,
        goal: '<= 3',
        met: run.completed && estimate.writeUnitsPerRecipient <= 3 ? 'yes' : 'no',
      });
    }
  }

  if (selected.has('campaign')) {
    const { benchCampaign, CAMPAIGN_PARTS } = await import('./campaign');
    const listArgument = (name: string) =>
      process.argv
        .find((argument) => argument.startsWith(`--${name}=`))
        ?.slice(name.length + 3)
        .split(',');
    const parts = listArgument('campaign-parts') ?? [...CAMPAIGN_PARTS];
    const unknown = parts.filter((part) => !(CAMPAIGN_PARTS as readonly string[]).includes(part));
    if (unknown.length) throw new Error(`--campaign-parts: unknown ${unknown.join(', ')} (parts: ${CAMPAIGN_PARTS.join(', ')})`);
    const expansionMembers = (listArgument('campaign-expansion-members') ?? ['100000', '300000']).map(Number);
    if (expansionMembers.some((value) => !Number.isInteger(value) || value <= 0))
      throw new Error('--campaign-expansion-members must be positive whole numbers');
    const campaign = await benchCampaign({
      parts: new Set(parts as Array<(typeof CAMPAIGN_PARTS)[number]>),
      importMembers: numberArgument('campaign-members') ?? 200_000,
      launchMembers: numberArgument('campaign-launch-members') ?? 1_000_000,
      launches: numberArgument('campaign-launches') ?? 5,
      expansionMembers,
      costRecipients: numberArgument('campaign-cost-recipients') ?? 10_000,
      drainMembers: numberArgument('campaign-drain-members') ?? 100_000,
      besideMembers: numberArgument('campaign-beside-members') ?? 100_000,
      fifthRecipients: numberArgument('fifth-recipients') ?? 40_000,
      out,
    });
    results.campaign = campaign.results;
    loadBySection.campaign = os.loadavg();
    goals.push(...campaign.goals);
  }

  if (goals.length) {
    out(section('Goals'));
    out(
      renderTable(
        ['figure', 'value', 'goal', 'met'],
        goals.map((goal) => [goal.figure, goal.value, goal.goal, goal.met]),
      ),
    );
  }
  results.goals = goals;
  results.loadAverageAfterSection = loadBySection;
  results.totalSeconds = round((performance.now() - benchStarted) / 1000, 1);
  mkdirSync(resultsDirectory, { recursive: true });
  const file = join(resultsDirectory, 'latest.json');
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  out(`\nTotal ${results.totalSeconds} s. Results: ${file}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
