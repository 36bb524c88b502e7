#!/usr/bin/env node
/**
 * `npm test`: the static checks (type check, lint, format) and jest side by side instead of one after the other, and jest with
 * one worker more than the cores (docs/TESTING.md "Keeping the suite fast"). On 2 cores jest's default
 * is one worker (cores - 1), which runs the suites one at a time; an integration suite keeps about
 * three quarters of a core busy and waits on timers and I/O the rest, so three at a time fill the two
 * cores (measured: 2 workers 84 s, 3 workers 56 s for the delivery and send-rules suites). tsc's output is
 * printed when it ends, as one block, so it does not interleave with jest's. Either failing fails
 * the run; extra arguments go to jest (`npm test -- test/unit/delivery`, `npm test -- -w 1`).
 *
 * The whole suite (no arguments) runs in two phases: everything but the suites that assert
 * wall-clock timing (test/support/serial-suites.cjs) with cores + 1 workers, then those one at a time.
 * The type check runs beside the first phase; the linter and the formatter's check beside the second,
 * on the core its one worker leaves idle (they took ~150 s of CPU from the first phase's workers).
 */
const { spawn } = require('node:child_process');
const os = require('node:os');
const serialSuites = require('../test/support/serial-suites.cjs');

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const jestArguments = (given) => {
  const chosen = given.some((argument) => /^(-w|--maxWorkers|-i|--runInBand)(=|\d|$)/.test(argument));
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return chosen ? given : [`--maxWorkers=${cores + 1}`, ...given];
};

const run = (command, args, options) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { shell: process.platform === 'win32', ...options });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });

async function main() {
  const started = Date.now();
  const given = process.argv.slice(2);
  if (given.length > 0) {
    const [checks, jest] = await Promise.all([
      staticChecks(started, ['typecheck', 'lint', 'format:check']),
      run('npx', ['jest', ...jestArguments(given)], { stdio: 'inherit' }),
    ]);
    return finish(started, checks, jest.code);
  }
  // The whole suite: the type check beside the parallel phase; the linter and the formatter's check
  // beside the serial phase, whose one jest worker leaves a core idle (docs/TESTING.md).
  const typecheck = staticChecks(started, ['typecheck']);
  let lint;
  const jest = await wholeSuite(() => {
    lint = staticChecks(started, ['lint', 'format:check']);
  });
  const checks = [await typecheck, await lint].find((result) => result.code !== 0) ?? { check: undefined, code: 0 };
  finish(started, checks, jest.code);
}

/**
 * `checks` one after another (the type check; the linter, ESLint with typescript-eslint's type-aware
 * rules; the formatter's check, Biome): one lane, one process beside jest's workers.
 */
async function staticChecks(started, checks) {
  for (const check of checks) {
    const result = await run('npm', ['run', '--silent', check], { stdio: ['ignore', 'pipe', 'pipe'] });
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    process.stderr.write(result.code === 0 ? `${check} passed (${seconds} s)\n` : `${check} FAILED (${seconds} s):\n${result.output}\n`);
    if (result.code !== 0) return { check, code: result.code };
  }
  return { check: undefined, code: 0 };
}

function finish(started, checks, jestCode) {
  if (checks.code !== 0) process.stderr.write(`npm test: ${checks.check} failed (its output is printed above)\n`);
  // Issue 40 item 7's figure (at most 15 minutes from a fresh clone on the 2-core machine).
  const elapsed = Math.round((Date.now() - started) / 1000);
  process.stderr.write(`npm test: ${Math.floor(elapsed / 60)} min ${elapsed % 60} s in all\n`);
  process.exit(checks.code !== 0 ? checks.code : jestCode);
}

/**
 * Phase 1: all but the serial suites, cores + 1 workers; phase 2: the serial suites, one worker,
 * with `beforeSerial` started beside them. The first failure's code wins.
 */
async function wholeSuite(beforeSerial) {
  const ignored = ['/node_modules/', ...serialSuites.map((path) => `${escaped(path)}$`)];
  const parallel = await run('npx', ['jest', ...jestArguments([]), ...ignored.flatMap((pattern) => ['--testPathIgnorePatterns', pattern])], {
    stdio: 'inherit',
  });
  process.stderr.write(`\nnpm test: the suites that assert wall-clock timing, one at a time (test/support/serial-suites.cjs), the linter beside them\n`);
  beforeSerial();
  const serial = await run('npx', ['jest', '--maxWorkers=1', '--runTestsByPath', ...serialSuites], { stdio: 'inherit' });
  return { code: parallel.code !== 0 ? parallel.code : serial.code };
}

void main();
