/**
 * `npm start` as a newcomer runs it (`node --import tsx local/start.ts` in a child process): it starts without
 * Node's ExperimentalWarning, and a taken port ends with a message naming the setting to change.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../../..');

/** Long enough for a loaded 2-core machine (a first start compiles with tsx), short of jest's timeouts. */
const RUN_DEADLINE_MS = 75_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm start`'s command; once stdout shows the ready banner (and `untilLine` when given), sends SIGTERM. */
const runStart = (environment: Record<string, string>, onReady?: () => void, untilLine?: RegExp): Promise<Run> =>
  new Promise((resolve, reject) => {
    // Without the test setup's POWERTOOLS_LOG_LEVEL=SILENT: `npm start` as a person runs it.
    const { POWERTOOLS_LOG_LEVEL: _silenced, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
      cwd: root,
      env: { ...inherited, ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let stopping = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const ready = stdout.includes('Ctrl-C stops everything');
      if (ready && onReady) {
        const call = onReady;
        onReady = undefined;
        call();
      }
      if (!stopping && ready && (untilLine === undefined || untilLine.test(stdout))) {
        stopping = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A run that never reaches its line fails with what it printed instead of hanging to jest's timeout.
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm start did not reach ${String(untilLine ?? 'its banner')} within ${RUN_DEADLINE_MS} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, RUN_DEADLINE_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr });
    });
  });

const listenOnFreePort = (): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
const portOf = (server: Server): number => (server.address() as AddressInfo).port;
const freePort = async (): Promise<number> => {
  const server = await listenOnFreePort();
  const port = portOf(server);
  await new Promise((done) => server.close(done));
  return port;
};

let dataDirectory: string;
beforeEach(() => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'npm-start-'));
});
afterEach(() => rmSync(dataDirectory, { recursive: true, force: true }));

jest.setTimeout(90_000);

it('starts, prints the banner with the URLs, and no ExperimentalWarning, then stops on SIGTERM', async () => {
  const [port, sandboxPort, identityPort] = [await freePort(), await freePort(), await freePort()];
  const run = await runStart({ PORT: String(port), SANDBOX_PORT: String(sandboxPort), IDENTITY_PORT: String(identityPort), LOCAL_DATA_DIR: dataDirectory });
  expect(run.stdout).toContain(`Gateway          http://127.0.0.1:${port}`);
  expect(run.stdout).toContain(`http://127.0.0.1:${sandboxPort}`);
  expect(run.stdout).toContain(`Sign-in (OIDC)   http://127.0.0.1:${identityPort}`);
  expect(run.stdout).toMatch(/campaign-manager +manager@demo\.example +password \S+/);
  expect(run.stdout).toContain('stopped.');
  expect(run.stderr).not.toContain('ExperimentalWarning');
  expect(run.code).toBe(0);
});

it.each([
  ['PORT', 'the local gateway'],
  ['SANDBOX_PORT', 'the Cloud API sandbox'],
  ['IDENTITY_PORT', 'the local identity provider'],
])('a taken %s ends with a message naming that variable, not a bare EADDRINUSE', async (setting, what) => {
  const taken = await listenOnFreePort();
  try {
    const takenPort = portOf(taken);
    const ports = {
      PORT: String(await freePort()),
      SANDBOX_PORT: String(await freePort()),
      IDENTITY_PORT: String(await freePort()),
      [setting]: String(takenPort),
    };
    const run = await runStart({ ...ports, LOCAL_DATA_DIR: dataDirectory });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`port ${takenPort} (${what}) is already in use`);
    expect(run.stderr).toContain(`set ${setting} to a free port, e.g. ${setting}=${takenPort + 1}`);
    expect(run.stderr).not.toContain('EADDRINUSE');
  } finally {
    await new Promise((done) => taken.close(done));
  }
});

it('prints one readable line per request under the banner, no raw JSON log lines; LOG_FORMAT=json keeps them', async () => {
  const port = await freePort();
  const environment = { PORT: String(port), SANDBOX_PORT: String(await freePort()), IDENTITY_PORT: String(await freePort()), LOCAL_DATA_DIR: dataDirectory };
  // Asked again while it fails or hangs (a first call on a loaded machine can meet a function thread still starting).
  const askHealth = (triesLeft = 20): void => {
    const again = (): void => {
      if (triesLeft > 1) setTimeout(() => askHealth(triesLeft - 1), 1_000).unref();
    };
    // A 5xx (a function thread still starting answers 502/504) is asked again too: without it the
    // `→ health 200` line the run waits for never came and the test hung until jest's timeout.
    fetch(`http://127.0.0.1:${port}/prod/api/v2/broadcast/public/health`, { signal: AbortSignal.timeout(10_000) }).then((response) => {
      void response.body?.cancel();
      if (response.status !== 200) again();
    }, again);
  };
  const run = await runStart(environment, () => askHealth(), /→ health 200/);
  expect(run.stdout).toMatch(/\d\d:\d\d:\d\d\.\d{3} {2}→ health 200 \(\d+ ms\)/);
  expect(run.stdout).toContain('LOG_FORMAT=json for the raw lines');
  expect(run.stdout).not.toMatch(/^\{"level"/m);

  const raw = await runStart({ ...environment, LOG_FORMAT: 'json' }, () => askHealth(), /"message":"request served"/);
  expect(raw.stdout).toMatch(/^\{"level":"INFO","message":"request served"/m);
}, 180_000);
