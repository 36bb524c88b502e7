/**
 * Answers of issue 39's API parts for the console's browser suite (not a test file), shaped as
 * HELPER-RULES "The decisions every helper builds to" says, served by Playwright's `page.route`
 * while helpers "windows", "caps" and "canary" build them beside the console:
 * - a broadcast job that holds recipients for their send window and the frequency cap (status,
 *   recipients with WAITING and FREQUENCY_CAPPED rows, pause and resume keeping the state);
 * - the campaign dry run: the real answer, with a recorded `sendWindow` plan when it has none.
 * Everything else (the page, sign-in, campaigns' create and dry run, templates, `/contact-policy`:
 * helper "caps"' routes, merged) is the real runtime's.
 */
import type { Page, Route } from 'playwright-core';
import type { JobStatusView, RecipientRow } from '../../../console/model/api-types';
import { recipientsCsv } from '../../../shared/broadcast/list-recipients';
import type { SendWindowPlan } from '../../../console/model/respect-types';
import { FREQUENCY_CAPPED, reasonTable } from '../../../shared/sending/failure-reasons';

export const WAITING_JOB_ID = 'pub_01RESPECT';
export const RECORDED_PLAN: SendWindowPlan = { now: 1, later: [{ at: '2026-12-03T03:30:00.000Z', count: 2 }] };

const envelope = (statusCode: number, message: string, data: unknown) => JSON.stringify({ statusCode, message, data });
const json = (route: Route, status: number, message: string, data: unknown) =>
  route.fulfill({ status, contentType: 'application/json', body: envelope(status, message, data) });

const cappedText = reasonTable().find((row) => row.code === FREQUENCY_CAPPED)!.text;

/** 10 recipients: 4 sent, 4 WAITING for their window, 2 failed FREQUENCY_CAPPED. */
const rows: RecipientRow[] = Array.from({ length: 10 }, (_, index) => {
  const waiting = index >= 4 && index < 8;
  const capped = index >= 8;
  return {
    countryCode: index % 2 ? '1' : '91',
    toPhoneNumber: String(9_400_000_000 + index),
    status: waiting ? 'WAITING' : capped ? 'FAILED' : 'DELIVERED',
    messageId: waiting || capped ? null : `wamid.r${index}`,
    failureReasonCode: capped ? FREQUENCY_CAPPED : null,
    failureReason: capped ? cappedText : null,
    updatedAt: '2026-12-02T15:00:00.000Z',
    ...(waiting ? { waitingUntil: '2026-12-03T03:30:00.000Z' } : {}),
  };
});

export interface RespectStub {
  job: JobStatusView;
  /** The dry run's plan the page was given (the real one, or the recorded one). */
  plan?: SendWindowPlan;
}

function waitingJob(): JobStatusView {
  return {
    jobId: WAITING_JOB_ID,
    status: 'PROCESSING',
    totalRecipients: rows.length,
    totalChunks: 1,
    summary: {
      sent: 4,
      failed: 2,
      unknown: 0,
      pending: 4,
      chunksDone: 0,
      chunksTotal: 1,
      failuresByReason: { FREQUENCY_CAPPED: 2 },
      delivered: 4,
      read: 0,
      unconfirmed: 0,
      waitingForWindow: 4,
      nextWindowAt: '2026-12-03T03:30:00.000Z',
      deferredByCap: 0,
    },
  };
}

/** The API's own CSV writer; its row type gains WAITING with helper "windows"' branch (not merged here). */
const csvOf = (listed: RecipientRow[]): string => recipientsCsv(listed as Parameters<typeof recipientsCsv>[0]);

function jobAnswer(stub: RespectStub, route: Route, url: URL, method: string): Promise<void> {
  if (url.pathname.endsWith('/pause') && method === 'POST') {
    stub.job = {
      ...stub.job,
      status: 'PAUSED',
      pause: { reason: 'PAUSED_BY_USER', since: '2026-12-02T15:05:00.000Z', failsAt: null, pausedBy: 'user', by: 'key_demo' },
    };
    return json(route, 200, 'Paused', { jobId: WAITING_JOB_ID, status: 'PAUSED', pause: stub.job.pause, summary: stub.job.summary });
  }
  if (url.pathname.endsWith('/resume') && method === 'POST') {
    const { pause: _pause, ...rest } = stub.job;
    stub.job = { ...rest, status: 'PROCESSING' };
    return json(route, 200, 'Resumed', { jobId: WAITING_JOB_ID, status: 'PROCESSING', summary: stub.job.summary });
  }
  if (url.pathname.endsWith('/recipients')) {
    const status = url.searchParams.get('status');
    // The per-minute chart reads the CSV (the API's own writer).
    if (url.searchParams.get('format') === 'csv')
      return route.fulfill({ status: 200, contentType: 'text/csv; charset=utf-8', body: csvOf(rows.filter((row) => !status || row.status === status)) });
    return json(route, 200, 'Recipients', { recipients: rows.filter((row) => !status || row.status === status), nextCursor: null });
  }
  return json(route, 200, 'Status', stub.job);
}

async function dryRunAnswer(stub: RespectStub, route: Route): Promise<void> {
  const real = await route.fetch();
  const body = (await real.json()) as { data?: { sendWindow?: SendWindowPlan } };
  if (real.ok() && body.data && !body.data.sendWindow) body.data.sendWindow = RECORDED_PLAN;
  stub.plan = body.data?.sendWindow;
  return route.fulfill({ response: real, json: body });
}

/** Registers the answers on the page (after any catch-all route, so they win). */
export async function stubRespectRoutes(page: Page): Promise<RespectStub> {
  const stub: RespectStub = { job: waitingJob() };
  await page.route(
    (url) => url.pathname.endsWith(`/status/${WAITING_JOB_ID}`) || url.pathname.includes(`/broadcasts/${WAITING_JOB_ID}/`),
    (route, request) => jobAnswer(stub, route, new URL(request.url()), request.method()),
  );
  await page.route(
    (url) => /\/campaigns\/[^/]+\/launch$/.test(url.pathname) && url.searchParams.get('dryRun') === 'true',
    (route) => dryRunAnswer(stub, route),
  );
  return stub;
}
