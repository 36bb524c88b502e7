/**
 * The read side through the local runtime: GET /broadcasts/{jobId}/recipients (JSON pages, status
 * filter, cursor, CSV of 10,000 rows), the summary counted from tally items, the recipients stored
 * per chunk at accept, and the X-Broadcast-Job-Id header of accepted sends.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getServices } from '../../../functions/composition';
import { messagingKeys } from '../../../shared/adapters/dynamodb/messaging-table';
import { newJob } from '../../../shared/broadcast/job-fan-out';
import type { LedgerEntry } from '../../../shared/broadcast/ports';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, ensureMinuteHeadroom, issueKey, keyHeader, kitEnvironment, orderUpdate, recipients, waitForTerminal } from './broadcast-test-kit';

jest.setTimeout(120_000);

describe('recipients list, summary and job id header', () => {
  let runtime: TestRuntime;
  let organizationId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const get = (path: string, apiKey: string) => runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(apiKey) });
  const freshKey = async () => (await issueKey(organizationId)).secret;
  /** An answer without what differs per request. */
  const comparable = (response: TestResponse) => ({
    status: response.status,
    body: JSON.parse(JSON.stringify(response.body).replace(/"(requestId|timestamp|path)":"[^"]*"/g, '"$1":"<volatile>"')),
  });

  describe('a drained broadcast of 1,001 recipients', () => {
    let jobId: string;
    let key: string;
    const data = recipients(1_001, { first: 9_100_000_000 });

    beforeAll(async () => {
      key = await freshKey();
      const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body: orderUpdate(data) });
      expect(accepted.status).toBe(202);
      jobId = accepted.body.data.jobId;
      expect(accepted.headers.get('x-broadcast-job-id')).toBe(jobId);
      await waitForTerminal(organizationId, jobId, 90_000);
    }, 120_000);

    // Accepted by Meta: SENT, or further once the sandbox's delivery webhooks (if any) were applied.
    const ACCEPTED = ['SENT', 'DELIVERED', 'READ'];

    it('lists every recipient once, in request order, accepted with its message id, over pages of the cursor', async () => {
      const rows: Array<Record<string, unknown>> = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response = await get(`/broadcasts/${jobId}/recipients?limit=400${cursor ? `&cursor=${cursor}` : ''}`, key);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ status: true, status_code: 200, data: { recipients: expect.any(Array) } });
        rows.push(...response.body.data.recipients);
        cursor = response.body.data.nextCursor;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(3);
      expect(rows.map((row) => `${String(row.countryCode)}:${String(row.toPhoneNumber)}`)).toEqual(data.map((recipient) => `91:${recipient.toPhoneNumber}`));
      expect(
        rows.filter(
          (row) =>
            !ACCEPTED.includes(row.status as string) || row.failureReasonCode !== null || row.failureReason !== null || typeof row.updatedAt !== 'string',
        ),
      ).toEqual([]);
      const sandboxIds = new Set(runtime.sandbox!.acceptedMessages().map((message) => message.messageId));
      const messageIds = rows.map((row) => row.messageId as string);
      expect(new Set(messageIds).size).toBe(1_001);
      expect(messageIds.every((id) => sandboxIds.has(id))).toBe(true);
    });

    it('filters by status; an unknown status or a foreign cursor is a 400 naming the field', async () => {
      for (const status of ACCEPTED) {
        const page = await get(`/broadcasts/${jobId}/recipients?status=${status}&limit=1000`, key);
        expect(page.status).toBe(200);
        expect(page.body.data.recipients.filter((row: { status: string }) => row.status !== status)).toEqual([]);
      }
      const failed = await get(`/broadcasts/${jobId}/recipients?status=FAILED`, key);
      expect(failed.body.data).toEqual({ recipients: [], nextCursor: null });

      const badStatus = await get(`/broadcasts/${jobId}/recipients?status=BOUNCED`, key);
      expect(badStatus.status).toBe(400);
      expect(badStatus.body.message).toBe(
        'status must be one of PENDING, SENT, DELIVERED, READ, FAILED, UNKNOWN, UNCONFIRMED, CANCELLED, HELD, HELD_OUT, WAITING',
      );
      const firstPage = await get(`/broadcasts/${jobId}/recipients?limit=1`, key);
      const otherFilter = await get(`/broadcasts/${jobId}/recipients?status=FAILED&cursor=${firstPage.body.data.nextCursor}`, key);
      expect([otherFilter.status, otherFilter.body.data.error.code]).toEqual([400, 'INVALID_CURSOR']);
    });

    it("answers another organization's key, an unknown job and a junk id exactly as the status endpoint does", async () => {
      await ensureMinuteHeadroom(10);
      const foreignKey = runtime.demo.otherOrg.apiKey;
      for (const id of [jobId, 'pub_doesnotexist', 'not-a-job']) {
        const viaStatus = await get(`/status/${id}`, foreignKey);
        const viaRecipients = await get(`/broadcasts/${id}/recipients`, foreignKey);
        expect(viaStatus.status).not.toBe(200);
        expect(comparable(viaRecipients)).toEqual(comparable(viaStatus));
      }
    });
  });

  it('status and recipients share one rate-limit bucket per key', async () => {
    await ensureMinuteHeadroom(20);
    const key = await freshKey();
    const answers: number[] = [];
    for (let call = 0; call < 31; call += 1) {
      answers.push((await get(call % 2 === 0 ? '/status/pub_unknown' : '/broadcasts/pub_unknown/recipients', key)).status);
    }
    expect(answers.slice(0, 30).every((status) => status === 404)).toBe(true);
    expect(answers[30]).toBe(429);
  });

  it('names the job of a broadcast of 1,000 or fewer and of a free-form message in X-Broadcast-Job-Id; its status and recipients can be read', async () => {
    const key = await freshKey();
    const small = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(key),
      body: orderUpdate(recipients(3, { first: 9_200_000_000 })),
    });
    expect([small.status, small.body.data]).toEqual([200, {}]);
    const smallJob = small.headers.get('x-broadcast-job-id')!;
    expect(smallJob).toMatch(/^pub_/);
    const smallStatus = await get(`/status/${smallJob}`, key);
    expect(smallStatus.body.data).toMatchObject({ jobId: smallJob, totalRecipients: 3 });

    const freeform = await runtime.call('POST', `${BASE}/send-freeform`, {
      headers: keyHeader(key),
      body: { fromPhoneNumber: DEMO.sender1, toPhoneNumber: '919300000077', type: 'text', text: 'Your parcel is on its way' },
    });
    expect([freeform.status, freeform.body.data]).toEqual([200, {}]);
    const message = freeform.headers.get('x-broadcast-job-id')!;
    expect(message).toMatch(/^msg_/);
    const messageStatus = await get(`/status/${message}`, key);
    expect(messageStatus.body.data).toMatchObject({ jobId: message, totalRecipients: 1 });
    const listed = await get(`/broadcasts/${message}/recipients`, key);
    expect(listed.body.data.recipients).toEqual([expect.objectContaining({ countryCode: '', toPhoneNumber: '919300000077' })]);
  });

  it('lists a send Meta held for quality assessment as HELD and counts it in the summary’s held (template pacing)', async () => {
    const key = await freshKey();
    const data = recipients(3, { first: 9_250_000_000 });
    runtime.sandbox!.configure({ recipientHolds: { [`91${data[1]!.toPhoneNumber}`]: { times: 1 } } });
    try {
      const small = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body: orderUpdate(data) });
      expect(small.status).toBe(200);
      const jobId = small.headers.get('x-broadcast-job-id')!;
      await waitForTerminal(organizationId, jobId, 30_000);
      const rows = (await get(`/broadcasts/${jobId}/recipients`, key)).body.data.recipients as Array<{
        toPhoneNumber: string;
        status: string;
        messageId: string | null;
      }>;
      expect(rows.map((row) => row.status)).toEqual(['SENT', 'HELD', 'SENT']);
      expect(rows[1]!.messageId).toEqual(expect.any(String));
      const status = await get(`/status/${jobId}`, key);
      expect(status.body.data).toMatchObject({ status: 'COMPLETED', summary: { sent: 2, held: 1, failed: 0, pending: 0 } });
      const onlyHeld = await get(`/broadcasts/${jobId}/recipients?status=HELD`, key);
      expect(onlyHeld.body.data.recipients).toHaveLength(1);
    } finally {
      runtime.sandbox!.configure({ recipientHolds: { [`91${data[1]!.toPhoneNumber}`]: null } });
    }
  });

  it('exports 10,000 rows as CSV in one answer, and the summary counts the tally items', async () => {
    const services = getServices();
    const total = 10_000;
    const job = newJob(
      { kind: 'template', broadcastName: 'csv', template: { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl' } },
      {
        jobId: 'pub_csv_ten_thousand',
        organizationId,
        sender: { phoneNumber: DEMO.sender1, phoneNumberId: DEMO.phoneNumberId1, wabaId: DEMO.wabaId },
        totalRecipients: total,
        exposed: true,
        now: new Date(),
      },
    );
    const listed = Array.from({ length: total }, (_, index) => ({ index, countryCode: '44', toPhoneNumber: String(7_700_000_000 + index) }));
    await services.broadcast.broadcasts.createJob(job, Array(10).fill(1000), listed);
    // The ledger and tally items as the worker and the event processor leave them, written directly (fast).
    const table = services.config.tableNames.messaging;
    const now = new Date().toISOString();
    const items: Array<Record<string, unknown>> = [];
    for (let index = 0; index < total; index += 1) {
      const chunkIndex = Math.floor(index / 1000);
      const failed = index % 100 === 99;
      const entry: LedgerEntry = { index, to: `44${7_700_000_000 + index}`, status: 'SENT', messageId: `wamid.csv${index}`, attempts: 1, updatedAt: now };
      items.push({
        ...messagingKeys.ledger(job.jobId, chunkIndex, index),
        ...entry,
        ...(failed ? { failedAt: now, metaErrorCode: 131049, metaErrorTitle: 'Not delivered, to keep engagement healthy' } : { deliveredAt: now }),
      });
    }
    for (let bucket = 0; bucket < total / 50; bucket += 1) {
      const codes: Record<string, string> = {};
      for (let index = bucket * 50; index < bucket * 50 + 50; index += 1) {
        codes[messagingKeys.tallyAttribute(index)] = index % 100 === 99 ? tallyCodes.failedByWebhook(131049) : tallyCodes.delivered;
      }
      items.push({ ...messagingKeys.tally(job.jobId, bucket), ...codes });
    }
    for (let start = 0; start < items.length; start += 25) {
      await services.clients.dynamoDb.send(
        new BatchWriteCommand({ RequestItems: { [table]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) } }),
      );
    }

    const key = await freshKey();
    // Its time is measured by `npm run bench`, not here (a test that prints timings reads as noise).
    const csv = await get(`/broadcasts/${job.jobId}/recipients?format=csv`, key);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${job.jobId}-recipients.csv"`);
    const text = csv.body as string;
    const lines = text.split('\r\n');
    // Changed on purpose (issue 25): the userId column, then the four pricing columns, last (empty without them).
    // (issue 38) the four outcome columns; (issue 39) waitingUntil, last.
    expect(lines[0]).toBe(
      'countryCode,toPhoneNumber,status,messageId,failureReasonCode,failureReason,updatedAt,sentVia,userId,pricingCategory,pricingType,billable,pricingModel,cost,costCurrency,pricingSubtype,repliedAt,buttonPayload,firstClickAt,clicks,waitingUntil',
    );
    expect(lines).toHaveLength(total + 2);
    // Changed on purpose (issue 26): two more empty cells, the rate card's cost and its currency; (issue 35) one more, Meta's pricing subtype.
    expect(lines[1]).toBe(`44,7700000000,DELIVERED,wamid.csv0,,,${now},cloud_api,,,,,,,,,,,,,`);
    expect(lines[100]).toBe(`44,7700000099,FAILED,wamid.csv99,131049,"Not delivered, to keep engagement healthy",${now},cloud_api,,,,,,,,,,,,,`);
    // Lambda answers at most 6 MB.
    const bytes = Buffer.byteLength(text);
    expect(bytes).toBeLessThan(6 * 1024 * 1024);

    const onlyFailed = await get(`/broadcasts/${job.jobId}/recipients?format=csv&status=FAILED`, key);
    expect((onlyFailed.body as string).trim().split('\r\n')).toHaveLength(1 + total / 100);
    // The same filter in JSON pages: 60 + 40 of the 100 failures, across all ten chunks.
    const firstFailed = await get(`/broadcasts/${job.jobId}/recipients?status=FAILED&limit=60`, key);
    const restFailed = await get(`/broadcasts/${job.jobId}/recipients?status=FAILED&limit=60&cursor=${firstFailed.body.data.nextCursor}`, key);
    expect([firstFailed.body.data.recipients.length, restFailed.body.data.recipients.length, restFailed.body.data.nextCursor]).toEqual([60, 40, null]);
    expect(restFailed.body.data.recipients[39]).toMatchObject({ toPhoneNumber: '7700009999', status: 'FAILED', failureReasonCode: '131049' });

    const status = await get(`/status/${job.jobId}`, key);
    expect(status.body.data.summary).toMatchObject({
      sent: 9_900,
      delivered: 9_900,
      read: 0,
      failed: 100,
      failuresByReason: { '131049': 100 },
      unknown: 0,
      unconfirmed: 0,
      pending: 0,
      chunksTotal: 10,
    });
  });
});
