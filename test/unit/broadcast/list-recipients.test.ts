/**
 * The read side over the in-memory repository: the recipients list (rows, status filter, paging
 * with a cursor, CSV) and the status summary counted from tally codes.
 */
import { getJobStatus } from '../../../shared/broadcast/get-job-status';
import { newJob, recordAndFanOut } from '../../../shared/broadcast/job-fan-out';
import { listRecipients, recipientsCsv, type RecipientRow } from '../../../shared/broadcast/list-recipients';
import { recipientsQuerySchema } from '../../../shared/broadcast/list-recipients.schema';
import { InvalidListCursorError, JobNotFoundError, JobOfAnotherOrganizationError } from '../../../shared/broadcast/errors';
import { parseRequest } from '../../../shared/http/validation';
import { RequestValidationError } from '../../../shared/http/errors';
import { fixedClock } from '../../../shared/ports/clock';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { InMemoryBroadcastRepository, ORG, OTHER_ORG, RecordingOutboundQueue, SENDER, SECOND_SENDER } from '../../support/broadcast-fakes';

const clock = fixedClock('2026-03-01T09:00:00.000Z');
const HOUR = 3_600_000;
const reading = (now = '2026-03-01T10:00:00.000Z') => ({ now: new Date(now), unconfirmedAfterMs: 24 * HOUR });
const JOB = 'pub_read1';
const templateRef = { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' };
const at = (minute: number) => `2026-03-01T09:${String(minute).padStart(2, '0')}:00.000Z`;

/** A job of `count` recipients +91 98000000<i>, accepted through the fan-out (recipients stored per chunk). */
async function acceptedJob(count: number, jobId = JOB) {
  const broadcasts = new InMemoryBroadcastRepository();
  const job = newJob(
    { kind: 'template', broadcastName: 'b', template: templateRef },
    { jobId, organizationId: ORG, sender: SENDER, totalRecipients: count, exposed: count > 1000, now: clock.now(), createdByCredentialId: 'cred_1' },
  );
  const listed = Array.from({ length: count }, (_, index) => ({ index, countryCode: '91', toPhoneNumber: `98${String(index).padStart(8, '0')}` }));
  await recordAndFanOut(
    { broadcasts, queue: new RecordingOutboundQueue(), clock },
    { job, listed, recipients: listed.map(({ index, countryCode, toPhoneNumber }) => ({ index, to: countryCode + toPhoneNumber, parameters: [] })) },
  );
  return broadcasts;
}

const sent = (index: number, messageId = `wamid.${index}`) => ({
  index,
  to: `9198${String(index).padStart(8, '0')}`,
  status: 'SENT' as const,
  messageId,
  attempts: 1,
  updatedAt: at(1),
});

describe('listRecipients', () => {
  const caller = { organizationId: ORG };

  it('lists every recipient in request order with its status, message id, reason and latest time', async () => {
    const broadcasts = await acceptedJob(6);
    await broadcasts.recordOutcomes(JOB, 0, [
      sent(0),
      sent(1),
      sent(2),
      sent(3),
      { index: 4, to: '919800000004', status: 'FAILED', failureReasonCode: 'INVALID_PHONE_NUMBER', attempts: 1, updatedAt: at(2) },
    ]);
    broadcasts.recordDelivery(JOB, 0, 1, { sentAt: at(3), deliveredAt: at(4) });
    broadcasts.recordDelivery(JOB, 0, 2, { readAt: at(5) });
    broadcasts.recordDelivery(JOB, 0, 3, {
      failedAt: at(6),
      metaErrorCode: 131049,
      metaErrorTitle: 'This message was not delivered to maintain healthy ecosystem engagement.',
    });

    const page = await listRecipients(broadcasts, caller, JOB, { limit: 500 }, reading());
    expect(page.nextCursor).toBeNull();
    expect(page.recipients).toEqual<RecipientRow[]>([
      {
        countryCode: '91',
        toPhoneNumber: '9800000000',
        status: 'SENT',
        messageId: 'wamid.0',
        failureReasonCode: null,
        failureReason: null,
        updatedAt: at(1),
        sentVia: 'cloud_api',
      },
      {
        countryCode: '91',
        toPhoneNumber: '9800000001',
        status: 'DELIVERED',
        messageId: 'wamid.1',
        failureReasonCode: null,
        failureReason: null,
        updatedAt: at(4),
        sentVia: 'cloud_api',
      },
      {
        countryCode: '91',
        toPhoneNumber: '9800000002',
        status: 'READ',
        messageId: 'wamid.2',
        failureReasonCode: null,
        failureReason: null,
        updatedAt: at(5),
        sentVia: 'cloud_api',
      },
      {
        countryCode: '91',
        toPhoneNumber: '9800000003',
        status: 'FAILED',
        messageId: 'wamid.3',
        failureReasonCode: '131049',
        failureReason: 'This message was not delivered to maintain healthy ecosystem engagement.',
        updatedAt: at(6),
        sentVia: 'cloud_api',
      },
      {
        countryCode: '91',
        toPhoneNumber: '9800000004',
        status: 'FAILED',
        messageId: null,
        failureReasonCode: 'INVALID_PHONE_NUMBER',
        failureReason: 'The number is not a valid WhatsApp number',
        updatedAt: at(2),
      },
      { countryCode: '91', toPhoneNumber: '9800000005', status: 'PENDING', messageId: null, failureReasonCode: null, failureReason: null, updatedAt: null },
    ]);
  });

  it('says which API carried each message Meta accepted (sentVia), and nothing for a recipient never sent', async () => {
    const broadcasts = await acceptedJob(4);
    await broadcasts.recordOutcomes(JOB, 0, [
      { ...sent(0), sentVia: 'marketing_messages' },
      sent(1),
      { index: 2, to: '919800000002', status: 'UNKNOWN', failureReasonCode: 'UNKNOWN_OUTCOME: timeout', attempts: 1, updatedAt: at(1) },
    ]);
    // Meta failed the marketing message after accepting it: it was still carried by the Marketing Messages API.
    broadcasts.recordDelivery(JOB, 0, 0, { failedAt: at(3), metaErrorCode: 131049 });
    const rows = (await listRecipients(broadcasts, caller, JOB, {}, reading())).recipients;
    expect(rows.map((row) => [row.status, row.sentVia])).toEqual([
      ['FAILED', 'marketing_messages'],
      ['SENT', 'cloud_api'],
      ['UNKNOWN', undefined],
      ['PENDING', undefined],
    ]);
    expect(rows[3]).not.toHaveProperty('sentVia');
  });

  it('reads an unknown outcome as UNCONFIRMED after the window, and as what its events say when they came', async () => {
    const broadcasts = await acceptedJob(2);
    await broadcasts.recordOutcomes(
      JOB,
      0,
      [0, 1].map((index) => ({ index, to: 'x', status: 'UNKNOWN' as const, failureReasonCode: 'UNKNOWN_OUTCOME: timeout', attempts: 1, updatedAt: at(0) })),
    );
    broadcasts.recordDelivery(JOB, 0, 1, { deliveredAt: at(9) });
    const statuses = async (now: string) => (await listRecipients(broadcasts, caller, JOB, {}, reading(now))).recipients.map((row) => row.status);
    expect(await statuses('2026-03-01T10:00:00.000Z')).toEqual(['UNKNOWN', 'DELIVERED']);
    expect(await statuses('2026-03-02T09:00:00.000Z')).toEqual(['UNCONFIRMED', 'DELIVERED']);
  });

  it('filters by status and pages with a cursor that covers every match exactly once, across chunks', async () => {
    const broadcasts = await acceptedJob(2_500);
    for (const chunkIndex of [0, 1, 2]) {
      const indexes = Array.from({ length: chunkIndex === 2 ? 500 : 1000 }, (_, offset) => chunkIndex * 1000 + offset);
      await broadcasts.recordOutcomes(
        JOB,
        chunkIndex,
        indexes.map((index) =>
          index % 7 === 0 ? { index, to: 'x', status: 'FAILED' as const, failureReasonCode: '131026', attempts: 1, updatedAt: at(1) } : sent(index),
        ),
      );
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listRecipients(broadcasts, caller, JOB, { status: 'FAILED', limit: 100, cursor }, reading());
      expect(page.recipients.every((row) => row.status === 'FAILED')).toBe(true);
      seen.push(...page.recipients.map((row) => row.toPhoneNumber));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    const expected = Array.from({ length: 2_500 }, (_, index) => index)
      .filter((index) => index % 7 === 0)
      .map((index) => `98${String(index).padStart(8, '0')}`);
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 100));

    // Without a filter, pages of 1,000 walk the chunks in order.
    const first = await listRecipients(broadcasts, caller, JOB, { limit: 1000 }, reading());
    const second = await listRecipients(broadcasts, caller, JOB, { limit: 1000, cursor: first.nextCursor! }, reading());
    const third = await listRecipients(broadcasts, caller, JOB, { limit: 1000, cursor: second.nextCursor! }, reading());
    expect([first.recipients.length, second.recipients.length, third.recipients.length, third.nextCursor]).toEqual([1000, 1000, 500, null]);
    expect(second.recipients[0]!.toPhoneNumber).toBe('9800001000');
  });

  it('refuses a cursor of another job or another filter, or one it never issued', async () => {
    const broadcasts = await acceptedJob(3);
    const { nextCursor } = await listRecipients(broadcasts, caller, JOB, { limit: 1 }, reading());
    expect(nextCursor).not.toBeNull();
    await expect(listRecipients(broadcasts, caller, JOB, { limit: 1, cursor: nextCursor!, status: 'PENDING' }, reading())).rejects.toThrow(
      InvalidListCursorError,
    );
    await expect(listRecipients(broadcasts, caller, JOB, { limit: 1, cursor: 'bm90LWEtY3Vyc29y' }, reading())).rejects.toThrow(InvalidListCursorError);
    await expect(
      listRecipients(broadcasts, caller, JOB, { limit: 1, cursor: Buffer.from('{"i":-1,"s":"","j":"pub_read1"}').toString('base64url') }, reading()),
    ).rejects.toThrow(InvalidListCursorError);
    const other = await acceptedJob(3, 'pub_read2');
    await expect(listRecipients(other, caller, 'pub_read2', { limit: 1, cursor: nextCursor! }, reading())).rejects.toThrow(InvalidListCursorError);
  });

  it("follows the status endpoint's access rules", async () => {
    const broadcasts = await acceptedJob(1);
    await expect(listRecipients(broadcasts, { organizationId: OTHER_ORG }, JOB, {}, reading())).rejects.toThrow(JobOfAnotherOrganizationError);
    await expect(listRecipients(broadcasts, caller, 'pub_missing', {}, reading())).rejects.toThrow(JobNotFoundError);
    const boundToOther = { organizationId: ORG, credentialId: 'cred_2', scope: { kind: 'sender' as const, phoneNumber: SECOND_SENDER.phoneNumber } };
    await expect(listRecipients(broadcasts, boundToOther, JOB, {}, reading())).rejects.toThrow(JobNotFoundError);
  });

  it("lists a free-form message's whole number with an empty country code", async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    const job = newJob(
      { kind: 'freeform', messageType: 'text' },
      { jobId: 'msg_1', organizationId: ORG, sender: SENDER, totalRecipients: 1, exposed: false, now: clock.now() },
    );
    await recordAndFanOut({ broadcasts, queue: new RecordingOutboundQueue(), clock }, { job, to: '447700900123', body: { type: 'text' } });
    const { recipients } = await listRecipients(broadcasts, caller, 'msg_1', {}, reading());
    expect(recipients).toEqual([expect.objectContaining({ countryCode: '', toPhoneNumber: '447700900123', status: 'PENDING' })]);
  });
});

describe('recipients query', () => {
  const parse = (query: Record<string, string>) => parseRequest(recipientsQuerySchema, query, 'query');

  it('defaults the limit to 500 and accepts 1 to 1000', () => {
    expect(parse({})).toEqual({ limit: 500 });
    expect(parse({ limit: '1', status: 'FAILED', format: 'csv' })).toEqual({ limit: 1, status: 'FAILED', format: 'csv' });
    expect(parse({ limit: '1000' }).limit).toBe(1000);
  });

  it('names the field and the rule', () => {
    expect(() => parse({ status: 'BOUNCED' })).toThrow(
      new RequestValidationError('status must be one of PENDING, SENT, DELIVERED, READ, FAILED, UNKNOWN, UNCONFIRMED, CANCELLED, HELD, HELD_OUT, WAITING'),
    );
    for (const limit of ['0', '1001', 'ten', '-1', '1.5']) expect(() => parse({ limit })).toThrow('limit must be a whole number from 1 to 1000');
    expect(() => parse({ cursor: 'not a cursor!' })).toThrow('cursor must be a nextCursor returned by this endpoint');
    expect(() => parse({ format: 'xml' })).toThrow('format must be json or csv');
  });
});

describe('recipientsCsv', () => {
  const row = (overrides: Partial<RecipientRow>): RecipientRow => ({
    countryCode: '91',
    toPhoneNumber: '9800000000',
    status: 'FAILED',
    messageId: null,
    failureReasonCode: '131000',
    failureReason: null,
    updatedAt: at(1),
    ...overrides,
  });

  it('writes a header and one line per row; quotes commas, quotes and line breaks; empty for null', () => {
    const pricing = { category: 'marketing_lite', type: 'regular', billable: true, pricingModel: 'PMP' };
    const csv = recipientsCsv([
      row({ failureReason: 'Something, "odd"\nhappened' }),
      row({
        status: 'SENT',
        messageId: 'wamid.1',
        failureReasonCode: null,
        sentVia: 'marketing_messages',
        pricing,
        cost: { currency: 'USD', amount: '0.0529' },
      }),
    ]);
    // Changed on purpose (issue 25): the userId column, then the four pricing columns; (issue 26) the rate card's cost and its currency; (issue 35) Meta's pricing subtype; (issue 38) the four outcome columns; (issue 39) waitingUntil, last.
    expect(csv).toBe(
      'countryCode,toPhoneNumber,status,messageId,failureReasonCode,failureReason,updatedAt,sentVia,userId,pricingCategory,pricingType,billable,pricingModel,cost,costCurrency,pricingSubtype,repliedAt,buttonPayload,firstClickAt,clicks,waitingUntil\r\n' +
        `91,9800000000,FAILED,,131000,"Something, ""odd""\nhappened",${at(1)},,,,,,,,,,,,,,\r\n` +
        `91,9800000000,SENT,wamid.1,,,${at(1)},marketing_messages,,marketing_lite,regular,true,PMP,0.0529,USD,,,,,,\r\n`,
    );
  });

  it('keeps a value that a spreadsheet would run as a formula as text', () => {
    expect(recipientsCsv([row({ failureReason: '=HYPERLINK("x")' })]).split('\r\n')[1]).toBe(
      `91,9800000000,FAILED,,131000,"'=HYPERLINK(""x"")",${at(1)},,,,,,,,,,,,,,`,
    );
  });
});

describe('getJobStatus summary from tally codes', () => {
  it('counts a recipient once however often its events were applied, with delivered, read and webhook failures', async () => {
    const broadcasts = await acceptedJob(4);
    await broadcasts.recordOutcomes(JOB, 0, [sent(0), sent(1), sent(2), sent(3)]);
    await broadcasts.addChunkProgress(JOB, 0, { sent: 4, failed: 0, unknown: 0, failuresByReason: {} });
    await broadcasts.reconcileChunk(JOB, 0, clock.now());
    // Duplicated and reordered events all land on the recipient's one code (a max-register).
    for (const code of [tallyCodes.sent, tallyCodes.delivered, tallyCodes.delivered, tallyCodes.read]) broadcasts.recordDelivery(JOB, 0, 0, {}, code);
    broadcasts.recordDelivery(JOB, 0, 1, {}, tallyCodes.delivered);
    broadcasts.recordDelivery(JOB, 0, 2, {}, tallyCodes.failedByWebhook(131049));
    broadcasts.recordDelivery(JOB, 0, 3, {}, tallyCodes.sent);

    const view = await getJobStatus(broadcasts, { organizationId: ORG }, JOB, reading());
    // Issue 26: the webhook failure (131049) makes the finished job COMPLETED_WITH_FAILURES (was COMPLETED).
    expect(view.status).toBe('COMPLETED_WITH_FAILURES');
    expect(view.summary).toEqual({
      sent: 3,
      delivered: 2,
      read: 1,
      failed: 1,
      unknown: 0,
      unconfirmed: 0,
      pending: 0,
      chunksDone: 1,
      chunksTotal: 1,
      failuresByReason: { '131049': 1 },
    });
  });
});
