/**
 * Scheduled broadcasts through the local runtime (docs/BROADCAST.md "Scheduling"): accepted as
 * SCHEDULED with every rule checked, held until their time, fired by the local stand-in for
 * EventBridge Scheduler (or by the sweep when the trigger is lost), cancelled before firing.
 */
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, orderUpdate, queueDepth, readJob, recipients, sleep, waitForTerminal } from './broadcast-test-kit';

const inSeconds = (seconds: number): string => new Date(Date.now() + seconds * 1000).toISOString();

describe('send-template-broadcast with scheduledAt', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    // A deployment setting: 300 s on AWS by default, 1 s here so the suite runs in seconds.
    runtime = await startTestRuntime({ environment: { BROADCAST_SCHEDULE_MIN_LEAD_SECONDS: '1' } });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });
  const key = () => ({ 'x-api-key': runtime.demo.apiKey });
  const sendsTo = (prefix: string) => runtime.sandbox!.acceptedMessages().filter((message) => String((message.body as { to?: unknown }).to).startsWith(prefix));
  const storedJob = async (jobId: string) => (await getServices().broadcast.broadcasts.getJob(jobId))!;

  it('answers 202 SCHEDULED whatever the size, reads and lists as SCHEDULED until its time, then fires within 2 s and completes', async () => {
    const body = orderUpdate(recipients(3, { first: 9_510_000_000 }), { scheduledAt: inSeconds(4) });
    const headers = { ...key(), 'idempotency-key': 'scheduled-1' };
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers, body });
    expect(accepted.status).toBe(202);
    const jobId: string = accepted.body.data.jobId;
    expect(accepted.body).toMatchObject({
      status: true,
      status_code: 202,
      data: { jobId, status: 'SCHEDULED', scheduledAt: new Date(String(body.scheduledAt)).toISOString(), totalRecipients: 3, chunkSize: 1000, totalChunks: 1 },
    });
    expect(accepted.headers.get('x-broadcast-job-id')).toBe(jobId);

    // A retry with the same key gets the first answer and holds nothing again.
    const replay = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers, body });
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual(accepted.body);

    const status = await runtime.call('GET', `${BASE}/status/${jobId}`, { headers: key() });
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ jobId, status: 'SCHEDULED' });
    const listed = await runtime.call('GET', `${BASE}/broadcasts?status=SCHEDULED`, { headers: key() });
    expect(listed.status).toBe(200);
    expect(listed.body.data.broadcasts).toEqual(
      expect.arrayContaining([expect.objectContaining({ jobId, status: 'SCHEDULED', scheduledAt: accepted.body.data.scheduledAt })]),
    );
    expect(await queueDepth(runtime)).toBe(0);
    expect(sendsTo('919510')).toEqual([]);

    const final = await waitForTerminal(runtime.demo.organizationId, jobId, 30_000);
    expect(final.status).toBe('COMPLETED');
    expect(final.summary.sent).toBe(3);
    expect(sendsTo('919510')).toHaveLength(3);
    // The promise: fired within 2 s of its time, never before it.
    const job = await storedJob(jobId);
    const lateness = Date.parse(job.firedAt!) - Date.parse(job.scheduledAt!);
    expect(lateness).toBeGreaterThanOrEqual(0);
    expect(lateness).toBeLessThan(2_000);
  }, 60_000);

  it('cancelled before its time: CANCELLED at once, every recipient CANCELLED, nothing ever sent', async () => {
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: key(),
      body: orderUpdate(recipients(2, { first: 9_520_000_000 }), { scheduledAt: inSeconds(3) }),
    });
    expect(accepted.status).toBe(202);
    const jobId: string = accepted.body.data.jobId;

    const cancelled = await runtime.call('POST', `${BASE}/broadcasts/${jobId}/cancel`, { headers: key() });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ jobId, status: 'CANCELLED', summary: expect.objectContaining({ cancelled: 2, pending: 0, sent: 0 }) });
    const rows = await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients`, { headers: key() });
    expect(rows.status).toBe(200);
    expect(rows.body.data.recipients.map((row: { status: string }) => row.status)).toEqual(['CANCELLED', 'CANCELLED']);

    // Past its time and a sweep or two: still nothing queued or sent, and it never fired.
    await sleep(5_000);
    expect(await queueDepth(runtime)).toBe(0);
    expect(sendsTo('919520')).toEqual([]);
    expect((await storedJob(jobId)).firedAt).toBeUndefined();
    expect((await readJob(runtime.demo.organizationId, jobId)).status).toBe('CANCELLED');
    expect(await getServices().broadcast.scheduling!.scheduledJobs.dueJobs(new Date(Date.now() + 60_000), 100)).not.toContain(jobId);
  }, 60_000);

  it('a lost trigger: the sweep fires the job all the same', async () => {
    runtime.scheduler.dropFirings(true);
    let jobId: string;
    try {
      const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
        headers: key(),
        body: orderUpdate(recipients(2, { first: 9_530_000_000 }), { scheduledAt: inSeconds(2) }),
      });
      expect(accepted.status).toBe(202);
      jobId = accepted.body.data.jobId;
    } finally {
      runtime.scheduler.dropFirings(false);
    }
    const final = await waitForTerminal(runtime.demo.organizationId, jobId, 30_000);
    expect(final.status).toBe('COMPLETED');
    expect((await storedJob(jobId)).firedAt).toBeDefined();
    expect(sendsTo('919530')).toHaveLength(2);
  }, 60_000);

  it('refuses a scheduledAt that is not an ISO time with an offset, or not within its window, naming the field and the rule', async () => {
    const refused = async (scheduledAt: string) => {
      const answer = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
        headers: key(),
        body: orderUpdate(recipients(1, { first: 9_540_000_000 }), { scheduledAt }),
      });
      expect(answer.status).toBe(400);
      return String(answer.body.message);
    };
    expect(await refused('2030-01-01 10:00')).toMatch(/^scheduledAt must be an ISO 8601 date and time with a UTC offset or Z/);
    expect(await refused(inSeconds(-60))).toBe('scheduledAt must be at least 1 second in the future');
    expect(await refused(inSeconds(36 * 86_400))).toBe('scheduledAt must be at most 35 days in the future');
  }, 30_000);
});
