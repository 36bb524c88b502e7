/**
 * The campaign console's browser suites (not a test file): Debian's Chromium through playwright-core,
 * a finished 1,001-recipient campaign with Meta's asynchronous failures (sandbox webhooks), and
 * every log line the runtime writes captured, so a suite can check the key never reaches one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { logger } from '../../../shared/observability/logger';
import type { TestRuntime } from '../../support/local-runtime';
import { BASE, keyHeader, orderUpdate, readJob, recipients, sleep } from '../broadcast/broadcast-test-kit';
import { TERMINAL_STATUSES } from '../../../shared/broadcast/broadcast-job';

export const browserPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => !!path && existsSync(path),
);
export const outputDirectory = join(__dirname, '..', '..', '..', 'test-output');

/** The sandbox fails these (by index) after the send, as Meta's status webhooks do. */
export const ASYNC_FAILURES: Readonly<Record<number, number>> = { 3: 131049, 250: 131049, 517: 131049, 800: 131026, 1000: 131026 };
export const CAMPAIGN_SIZE = 1_001;

const sandbox = (runtime: TestRuntime, method: string, path: string, body?: unknown) =>
  fetch(`${runtime.sandboxUrl}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Sends the campaign with the given key and waits until the job is finished and every webhook applied. */
export async function finishedCampaign(runtime: TestRuntime, key: string, name: string): Promise<string> {
  const data = recipients(CAMPAIGN_SIZE, { first: 9_500_000_000 });
  const failures = Object.fromEntries(Object.entries(ASYNC_FAILURES).map(([index, code]) => [`91${data[Number(index)]!.toPhoneNumber}`, { code }]));
  await sandbox(runtime, 'POST', '/webhooks', { duplicateRate: 0, reorderRate: 0, readRate: 0.3, recipientFailures: failures });
  const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body: orderUpdate(data, { broadcastName: name }) });
  if (accepted.status !== 200 && accepted.status !== 202) throw new Error(`broadcast not accepted: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  const jobId = accepted.headers.get('x-broadcast-job-id')!;
  await finished(runtime, jobId);
  await runtime.workersIdle();
  await sandbox(runtime, 'POST', '/webhooks/drain?timeoutMs=60000');
  await runtime.workersIdle();
  return jobId;
}

/** Waits for the job's terminal state; a read the loaded store times out is tried again. */
async function finished(runtime: TestRuntime, jobId: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const view = await readJob(runtime.demo.organizationId, jobId).catch(() => undefined);
    if (view && TERMINAL_STATUSES.has(view.status)) return;
    await sleep(500);
  }
  throw new Error(`job ${jobId} not finished within ${timeoutMs} ms`);
}

/**
 * Every line written to stdout and stderr from now on (the functions' and the gateway's logs). The
 * functions load their logger when first invoked, outside this test's module registry: its level is
 * the environment's at that moment, so this runs before the runtime starts (INFO: every request
 * served is logged).
 */
export function captureLogs(): { lines: string[]; stop(): void } {
  const lines: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const level = process.env.POWERTOOLS_LOG_LEVEL;
  const record = (chunk: unknown) => {
    lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return true;
  };
  process.stdout.write = record as typeof process.stdout.write;
  process.stderr.write = record as typeof process.stderr.write;
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  logger.setLogLevel('INFO');
  return {
    lines,
    stop: () => {
      process.stdout.write = out;
      process.stderr.write = err;
      process.env.POWERTOOLS_LOG_LEVEL = level;
      logger.setLogLevel('SILENT');
    },
  };
}

/** Every URL the page asked for, and any request leaving the runtime (refused: the console works offline). */
export async function recordRequests(page: Page, baseUrl: string, alsoAllowed: readonly string[] = []): Promise<{ urls: string[]; foreign: string[] }> {
  const urls: string[] = [];
  const foreign: string[] = [];
  // The service's own origin, and what the suite names (the identity provider a person signs in at).
  const allowed = [baseUrl, 'blob:', ...alsoAllowed];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    urls.push(url);
    if (allowed.some((prefix) => url.startsWith(prefix))) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  return { urls, foreign };
}
