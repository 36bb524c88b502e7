/**
 * Startup and shutdown of `npm start`, as a user meets them: spawn `npm start` (its own process
 * group, like a terminal job), wait for the ready banner, stop it with SIGINT.
 *
 *  - cold boot: fresh LOCAL_DATA_DIR, so the demo tenant is seeded;
 *  - warm boot: the same data dir again (persisted dynalite data + demo.json, no seeding; checked
 *    by the demo API key staying the same, since seeding always issues new credentials).
 *
 * Two ways of stopping, each measured from the signal to npm's exit:
 *  - after a cold boot, Ctrl-C: SIGINT to the whole process group (npm, sh, tsx, node);
 *  - after a warm boot, SIGINT to the app's node process only (what `kill -INT <pid>` or tsx's
 *    signal relay delivers). npm's exit code then is the app's own exit code. With Ctrl-C it is
 *    not: `sh -c` (dash) re-raises the SIGINT it received, so npm ends by SIGINT (shell status
 *    130) even though the app exits 0.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startLocalRuntime } from '../local/local-runtime';
import { freePort } from './lib/ports';
import { median, sleep } from './lib/stats';
import { withRestoredEnvironment } from './lib/workload';

const projectRoot = resolve(__dirname, '..');
const READY_MARKER = /local stack ready in (\d+) ms/;
const BOOT_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;

export interface BootSample {
  kind: 'cold' | 'warm';
  /** Spawn of `npm start` → the banner on stdout. */
  readyMs: number;
  /** The "ready in N ms" the app prints itself (from inside the node process). */
  selfReportedMs: number;
  stopMethod: 'ctrl-c (process group)' | 'SIGINT to app process';
  stopMs: number;
  npmExitCode: number | null;
  npmExitSignal: string | null;
  printedStopped: boolean;
  leftoverProcesses: number;
  seeded: boolean;
  stderrProblems: string[];
}

export interface StartupResult {
  runs: number;
  samples: BootSample[];
  medians: { coldReadyMs: number; warmReadyMs: number; ctrlCStopMs: number; sigintAppStopMs: number };
  appExitCodes: Array<number | null>;
  allClean: boolean;
  /** runtime.stop() in this process, with and without the SQS event source (median of 3 each). */
  inProcessStopMs: { withWorkers: number; withoutWorkers: number };
}

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: string | null; at: number }>;
}

function startStack(env: NodeJS.ProcessEnv): Running {
  let out = '';
  let err = '';
  // detached: a new process group, as a shell gives a job; Ctrl-C signals the whole group.
  const child = spawn('npm', ['start'], { cwd: projectRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal, at: performance.now() })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitForBanner(running: Running, startedAt: number): Promise<{ readyMs: number; selfReportedMs: number }> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within ${BOOT_TIMEOUT_MS} ms:\n${running.stdout()}\n${running.stderr()}`)), BOOT_TIMEOUT_MS);
    const check = () => {
      const match = READY_MARKER.exec(running.stdout());
      if (!match) return;
      const readyMs = performance.now() - startedAt;
      clearTimeout(timer);
      running.child.stdout!.off('data', check);
      resolvePromise({ readyMs, selfReportedMs: Number(match[1]) });
    };
    running.child.stdout!.on('data', check);
    void running.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code ?? signal}) before the banner:\n${running.stdout()}\n${running.stderr()}`));
    });
    check();
  });
}

/** Pids of every descendant of `pid` (ps is enough: Linux only, this is a bench). */
function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of table) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/** The node process running local/start.ts (the leaf under npm → sh → tsx). */
function appProcess(npmPid: number): number {
  const pids = descendants(npmPid);
  for (const pid of pids.reverse()) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (cmdline.some((part) => part.endsWith('local/start.ts')) && cmdline.some((part) => part.includes('loader.mjs'))) return pid;
    } catch {
      // gone meanwhile
    }
  }
  throw new Error('app process not found under npm start');
}

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

const knownNoise = [/Unknown (user|env) config "nodedir"/, /ExperimentalWarning: vm\.USE_MAIN_CONTEXT_DEFAULT_LOADER/, /Use `node --trace-warnings/];

async function boot(kind: 'cold' | 'warm', dataDirectory: string): Promise<BootSample> {
  const demoFile = join(dataDirectory, 'demo.json');
  const keyBefore = kind === 'warm' ? (JSON.parse(readFileSync(demoFile, 'utf8')) as { apiKey: string }).apiKey : undefined;
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const env = { ...process.env, PORT: String(port), SANDBOX_PORT: String(sandboxPort), LOCAL_DATA_DIR: dataDirectory };
  const startedAt = performance.now();
  const running = startStack(env);
  const pgid = running.child.pid!;
  try {
    const { readyMs, selfReportedMs } = await waitForBanner(running, startedAt);
    const keyAfter = (JSON.parse(readFileSync(demoFile, 'utf8')) as { apiKey: string }).apiKey;
    const stopMethod = kind === 'cold' ? 'ctrl-c (process group)' : 'SIGINT to app process';
    const target = kind === 'cold' ? -pgid : appProcess(pgid);
    const signalledAt = performance.now();
    process.kill(target, 'SIGINT');
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('did not stop in time')), STOP_TIMEOUT_MS));
    const exit = await Promise.race([running.exited, timeout]);
    // npm may exit a moment before its grandchildren are reaped: give the group a few ms.
    for (let i = 0; i < 50 && groupAlive(pgid); i += 1) await new Promise((r) => setTimeout(r, 20));
    const leftover = groupAlive(pgid) ? descendants(pgid).length + 1 : 0;
    const stderrProblems = running
      .stderr()
      .split('\n')
      .filter((line) => line.trim() !== '' && !knownNoise.some((pattern) => pattern.test(line)));
    return {
      kind,
      readyMs,
      selfReportedMs,
      stopMethod,
      stopMs: exit.at - signalledAt,
      npmExitCode: exit.code,
      npmExitSignal: exit.signal,
      printedStopped: /\nstopped\.\n/.test(running.stdout()),
      leftoverProcesses: leftover,
      seeded: kind === 'cold' || keyBefore !== keyAfter,
      stderrProblems,
    };
  } finally {
    if (groupAlive(pgid)) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** Where the shutdown time goes: the same runtime stopped in this process, with and without workers. */
async function inProcessStop(startWorkers: boolean): Promise<number> {
  return withRestoredEnvironment(async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-stop-'));
    try {
      const runtime = await startLocalRuntime({ port: 0, persist: false, dataDirectory, startWorkers, seedDemo: false });
      await sleep(300);
      const started = performance.now();
      await runtime.stop();
      return performance.now() - started;
    } finally {
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
}

export async function benchStartup(runs = 3, log: (line: string) => void = () => undefined): Promise<StartupResult> {
  const samples: BootSample[] = [];
  for (let run = 0; run < runs; run += 1) {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-start-'));
    try {
      const cold = await boot('cold', dataDirectory);
      log(`  run ${run + 1}: cold ready ${Math.round(cold.readyMs)} ms, ctrl-c stop ${Math.round(cold.stopMs)} ms`);
      const warm = await boot('warm', dataDirectory);
      log(`  run ${run + 1}: warm ready ${Math.round(warm.readyMs)} ms, SIGINT stop ${Math.round(warm.stopMs)} ms (exit ${warm.npmExitCode})`);
      samples.push(cold, warm);
    } finally {
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  }
  const of = (kind: 'cold' | 'warm') => samples.filter((sample) => sample.kind === kind);
  const appExitCodes = of('warm').map((sample) => sample.npmExitCode);
  const withWorkers: number[] = [];
  const withoutWorkers: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    withWorkers.push(await inProcessStop(true));
    withoutWorkers.push(await inProcessStop(false));
  }
  return {
    runs,
    samples,
    medians: {
      coldReadyMs: median(of('cold').map((sample) => sample.readyMs)),
      warmReadyMs: median(of('warm').map((sample) => sample.readyMs)),
      ctrlCStopMs: median(of('cold').map((sample) => sample.stopMs)),
      sigintAppStopMs: median(of('warm').map((sample) => sample.stopMs)),
    },
    appExitCodes,
    inProcessStopMs: { withWorkers: median(withWorkers), withoutWorkers: median(withoutWorkers) },
    allClean: samples.every(
      (sample) =>
        sample.printedStopped &&
        sample.leftoverProcesses === 0 &&
        sample.stderrProblems.length === 0 &&
        (sample.kind === 'cold' ? sample.npmExitSignal === 'SIGINT' || sample.npmExitCode === 130 : sample.npmExitCode === 0) &&
        (sample.kind === 'warm' ? !sample.seeded : true),
    ),
  };
}
