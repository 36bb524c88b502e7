/**
 * GET /broadcasts through the local runtime: the organization's jobs newest first with the status
 * endpoint's state and summary, tenant isolation and key scope, and the query's 400s.
 */
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, ensureMinuteHeadroom, issueKey, keyHeader, kitEnvironment, orderUpdate, recipients, waitForTerminal } from './broadcast-test-kit';

jest.setTimeout(120_000);

describe('broadcasts list', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let key: string;
  /** Oldest first, as sent. */
  const jobIds: string[] = [];

  const get = (path: string, apiKey: string) => runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(apiKey) });

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
    key = (await issueKey(organizationId)).secret;
    await ensureMinuteHeadroom(20);
    for (const [position, name] of ['first', 'second', 'third'].entries()) {
      const body = orderUpdate(recipients(position + 1, { first: 9_200_000_000 + position * 10 }), { broadcastName: name });
      const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body });
      expect(accepted.status).toBe(200);
      jobIds.push(accepted.headers.get('x-broadcast-job-id')!);
      // createdAt is kept to the millisecond: a pause keeps the three apart, so "newest first" is their sending order reversed.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const jobId of jobIds) await waitForTerminal(organizationId, jobId, 60_000);
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it('lists the three broadcasts newest first, each with the status endpoint’s state and summary', async () => {
    const response = await get('/broadcasts', key);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: true, status_code: 200, data: { nextCursor: null } });
    const listed: Array<Record<string, any>> = response.body.data.broadcasts;
    expect(listed.map((item) => item.jobId)).toEqual([...jobIds].reverse());
    expect(listed.map((item) => item.broadcastName)).toEqual(['third', 'second', 'first']);
    expect(listed.map((item) => item.totalRecipients)).toEqual([3, 2, 1]);
    for (const item of listed) {
      const status = await get(`/status/${item.jobId}`, key);
      expect(item).toEqual({
        jobId: item.jobId,
        kind: 'template',
        broadcastName: item.broadcastName,
        fromPhoneNumber: DEMO.sender1,
        template: { name: 'order_update', language: 'en_US' },
        status: 'COMPLETED',
        totalRecipients: item.totalRecipients,
        summary: status.body.data.summary,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        finishedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        scheduledAt: null,
      });
      expect(item.summary).toMatchObject({ sent: item.totalRecipients, failed: 0, pending: 0 });
      expect(item.finishedAt >= item.createdAt).toBe(true);
    }
    const paged = await get('/broadcasts?limit=2', key);
    const rest = await get(`/broadcasts?limit=2&cursor=${paged.body.data.nextCursor}`, key);
    expect([...paged.body.data.broadcasts, ...rest.body.data.broadcasts].map((item: { jobId: string }) => item.jobId)).toEqual([...jobIds].reverse());
    expect(rest.body.data.nextCursor).toBeNull();

    const second = listed[1]!;
    const fromSecond = await get(`/broadcasts?from=${second.createdAt}`, key);
    expect(fromSecond.body.data.broadcasts.map((item: { jobId: string }) => item.jobId)).toEqual([jobIds[2], jobIds[1]]);
    const onlySecond = await get(`/broadcasts?from=${second.createdAt}&to=${second.createdAt}`, key);
    expect(onlySecond.body.data.broadcasts.map((item: { jobId: string }) => item.jobId)).toEqual([jobIds[1]]);
  });

  it('shows another organization’s key none of them, and a key bound to the other sender none either', async () => {
    const foreign = await get('/broadcasts', runtime.demo.otherOrg.apiKey);
    expect(foreign.status).toBe(200);
    expect(foreign.body.data.broadcasts.filter((item: { jobId: string }) => jobIds.includes(item.jobId))).toEqual([]);

    const bound = await get('/broadcasts', (await issueKey(organizationId, DEMO.sender2)).secret);
    expect(bound.status).toBe(200);
    expect(bound.body.data).toEqual({ broadcasts: [], nextCursor: null });
  });

  it('answers a bad status, limit or cursor with a 400 naming the field', async () => {
    const badStatus = await get('/broadcasts?status=DONE', key);
    expect([badStatus.status, badStatus.body.message]).toEqual([
      400,
      'status must be one of SCHEDULED, QUEUED_FOR_PROCESSING, PROCESSING, PAUSED, COMPLETED, COMPLETED_WITH_FAILURES, FAILED, CANCELLED',
    ]);
    const badLimit = await get('/broadcasts?limit=500', key);
    expect([badLimit.status, badLimit.body.message]).toEqual([400, 'limit must be a whole number from 1 to 100']);
    const junkCursor = await get('/broadcasts?cursor=%21%21', key);
    expect([junkCursor.status, junkCursor.body.message]).toEqual([400, 'cursor must be a nextCursor returned by this endpoint']);
    const firstPage = await get('/broadcasts?limit=1', key);
    const otherFilter = await get(`/broadcasts?status=FAILED&cursor=${firstPage.body.data.nextCursor}`, key);
    expect([otherFilter.status, otherFilter.body.data.error.code]).toEqual([400, 'INVALID_CURSOR']);
    expect(otherFilter.body.message).toMatch(/^cursor /);
    const badRange = await get('/broadcasts?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', key);
    expect([badRange.status, badRange.body.message]).toEqual([400, 'to must not be before from']);
  });
});
