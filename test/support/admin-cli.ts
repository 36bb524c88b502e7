/**
 * The operators' CLI (scripts/admin.ts) in a child process, as the integration suites run it.
 * `node --import tsx`, not `npx tsx`: npx loads npm first and tsx's command then starts a second
 * Node process, about 1 s more CPU per command (the CLI suites run dozens); what runs is the same
 * script with the same arguments. `npx wa-admin` and `npm run admin` themselves are tested in
 * test/integration/tenancy/admin-cli.test.ts.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

export const projectRoot = resolve(__dirname, '../..');

export interface AdminCliResult {
  /** The exit code (1 when the process could not run or was killed by the timeout). */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `scripts/admin.ts <args>` from the project root; asynchronous, so a dynalite in this process keeps serving.
 *
 * @example
 * const result = await runAdminCli(['show-organization', '--org', org, '--env-file', envFile]);
 */
export function runAdminCli(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<AdminCliResult> {
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
