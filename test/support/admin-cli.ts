/**
 * The operators' CLI (scripts/admin.ts) as the integration suites run it: in this process by default
 * (`runAdminCli`), or in a child process (`runAdminCliProcess`) where a suite checks the process
 * itself. `npx wa-admin` and `npm run admin` are tested in test/integration/tenancy/admin-cli.test.ts.
 *
 * In this process the CLI gets a module registry of its own (`jest.isolateModules`): its pooled SDK
 * clients and its process-wide caches are not those of a local runtime in the same process, so its
 * clients' shutdown and its tenancy cache behave as in a process of its own. A child process costs
 * about 1 s of CPU per command and the CLI suites run dozens (docs/TESTING.md "Keeping the suite fast").
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import type { CliIo } from '../../scripts/admin';

export const projectRoot = resolve(__dirname, '../..');

export interface AdminCliResult {
  /** The exit code (1 when the process could not run or was killed by the timeout). */
  code: number;
  stdout: string;
  stderr: string;
}

export interface AdminCliOptions {
  /** Standard input (read by `--<flag>-stdin`). */
  input?: string;
  /** Variables set for this command only. */
  env?: Record<string, string>;
  /** A child process is killed after this long (runAdminCliProcess only; default 60 s). */
  timeoutMs?: number;
}

interface IsolatedCli {
  main(argv: readonly string[], io: CliIo): Promise<number>;
  /** Closes the CLI's clients and forgets its caches, as a process's exit does. */
  reset(): void;
}

let isolated: IsolatedCli | undefined;

function isolatedCli(): IsolatedCli {
  if (!isolated) {
    jest.isolateModules(() => {
      // require, not import: only inside isolateModules does the CLI get modules of its own.
      /* eslint-disable @typescript-eslint/no-require-imports */
      const { runAdminCli: main } = require('../../scripts/admin') as typeof import('../../scripts/admin');
      const composition = require('../../functions/composition/composition-context') as typeof import('../../functions/composition/composition-context');
      /* eslint-enable @typescript-eslint/no-require-imports */
      const { destroyPooledClients } = composition;
      isolated = { main, reset: destroyPooledClients };
    });
  }
  return isolated!;
}

/** Sets `values` on process.env for the length of `run`, then puts every variable back as it was (env files included). */
async function withEnvironment<T>(values: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const before = { ...process.env };
  Object.assign(process.env, values);
  try {
    return await run();
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
    Object.assign(process.env, before);
  }
}

/**
 * Runs `scripts/admin.ts <args>` in this process with its output captured; a dynalite or local runtime in this process keeps serving.
 *
 * @example
 * const result = await runAdminCli(['show-organization', '--org', org, '--env-file', envFile]);
 */
export async function runAdminCli(args: readonly string[], options: AdminCliOptions = {}): Promise<AdminCliResult> {
  const cli = isolatedCli();
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: [Buffer.from(options.input ?? '')],
  };
  try {
    const code = await withEnvironment(options.env ?? {}, () => cli.main(args, io));
    return { code, stdout, stderr };
  } finally {
    cli.reset();
  }
}

/**
 * Runs `scripts/admin.ts <args>` in a child process from the project root (`node --import tsx`, not
 * `npx tsx`: npx loads npm first and tsx's command starts a second Node process).
 *
 * @example
 * const result = await runAdminCliProcess(['rotate-meta-token', '--org', org, '--token-stdin'], { input: 'EAAG…\n' });
 */
export function runAdminCliProcess(args: readonly string[], options: AdminCliOptions = {}): Promise<AdminCliResult> {
  return new Promise((resolvePromise) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/admin.ts', ...args],
      { cwd: projectRoot, env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 60_000 },
      (error, stdout, stderr) => resolvePromise({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.input ?? '');
  });
}
