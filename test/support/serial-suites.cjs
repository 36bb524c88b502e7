/**
 * Suites that assert wall-clock timing (a job scheduled seconds ahead, a function's 1 s timeout, a
 * cancel against a paced drain, a suspension inside a scheduling window, another organization's
 * events within 5 s beside dead endpoints' redeliveries, a campaign completed while a browser waits). `npm test` runs them after
 * the rest, one at a time, alone on the machine (scripts/run-tests.cjs): beside a second jest worker on
 * 2 cores they missed their windows (docs/TESTING.md "Keeping the suite fast"). Paths from the root.
 */
module.exports = [
  'test/integration/broadcast/cancel.test.ts',
  'test/integration/broadcast/scheduled-broadcasts.test.ts',
  // p99 81 ms alone; 5.3 s once in a fresh-clone run beside three workers and the linter (2026-12-04).
  'test/integration/customer-webhooks/fairness.test.ts',
  // 28-31 s alone; 42-130 s beside three workers and the linter, where its campaign once missed a
  // 180 s wait (before a failed expansion came back after seconds and the store's answer limit rose).
  'test/integration/console/console-builder-browser.test.ts',
  'test/integration/local/threads-isolation.test.ts',
  'test/integration/organizations/suspend-organization.test.ts',
];
