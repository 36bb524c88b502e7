/** The console's pure parts (console/model/): what the pages compute from the API's answers. */
import { campaignReadOutcome, refusesKey } from '../../../console/model/access';
import type { JobSummary } from '../../../console/model/api-types';
import { routeOf } from '../../../console/model/route';
import { audienceOf, followUpBody, followUpDefaults, hasAudience } from '../../../console/model/follow-up';
import { failureGroupsOf, funnelOf } from '../../../console/model/funnel';
import { isFinished, progressOf, stateNoteOf } from '../../../console/model/job-state';
import { messagesPerMinute, parseCsv } from '../../../console/model/per-minute';
import { recipientsCsv, type RecipientRow } from '../../../shared/broadcast/list-recipients';
import { reasonTable } from '../../../shared/sending/failure-reasons';

const summary = (overrides: Partial<JobSummary> = {}): JobSummary => ({
  sent: 10,
  failed: 2,
  unknown: 0,
  pending: 0,
  chunksDone: 1,
  chunksTotal: 1,
  failuresByReason: {},
  delivered: 8,
  read: 3,
  unconfirmed: 0,
  ...overrides,
});

describe('funnel and failures', () => {
  it('is the summary: sent, delivered, read and failed beside them', () => {
    expect(funnelOf(summary()).map((bar) => [bar.label, bar.value])).toEqual([
      ['Sent', 10],
      ['Delivered', 8],
      ['Read', 3],
      ['Failed', 2],
    ]);
  });

  it('groups failures by code, most first, with the words and action of the one reason table', () => {
    const groups = failureGroupsOf({ '131026': 1, '131049': 3, OPTED_OUT: 1, '999999': 2, ZERO: 0 }, reasonTable());
    expect(groups.map((group) => [group.code, group.count])).toEqual([
      ['131049', 3],
      ['999999', 2],
      ['131026', 1],
      ['OPTED_OUT', 1],
    ]);
    expect(groups[0]).toMatchObject({ title: 'Meta chose not to deliver this marketing message', action: expect.stringMatching(/^Do not resend at once/) });
    // A code the table lacks reads as the default reason, as the recipients list does.
    expect(groups[1]!.title).toBe('The message could not be sent');
  });
});

describe('job state', () => {
  it('refreshes until a terminal state and notes failures Meta reported after a COMPLETED send', () => {
    expect(isFinished('PROCESSING')).toBe(false);
    expect(isFinished('COMPLETED_WITH_FAILURES')).toBe(true);
    expect(stateNoteOf('COMPLETED', summary())).toBe('2 failed after sending (reported by Meta)');
    expect(stateNoteOf('COMPLETED_WITH_FAILURES', summary())).toBeUndefined();
    expect(progressOf(summary({ pending: 250, held: 50 }), 1_000)).toEqual({ settled: 700, percent: 70 });
  });
});

describe('messages per minute', () => {
  it('parses the CSV the API writes (quotes, commas, CRLF) and counts rows with a message id per minute', () => {
    const row = (messageId: string | null, updatedAt: string | null, failureReason: string | null = null): RecipientRow => ({
      countryCode: '49',
      toPhoneNumber: '1701234567',
      status: 'SENT',
      messageId,
      failureReasonCode: null,
      failureReason,
      updatedAt,
    });
    const csv = recipientsCsv([
      row('wamid.1', '2026-03-01T09:00:05.000Z', 'a "quoted", reason'),
      row('wamid.2', '2026-03-01T09:00:55.000Z'),
      row(null, '2026-03-01T09:01:10.000Z'),
      row('wamid.3', '2026-03-01T09:02:00.000Z'),
    ]);
    expect(parseCsv(csv)[1]![5]).toBe('a "quoted", reason');
    expect(messagesPerMinute(csv)).toEqual([
      { minute: '2026-03-01T09:00:00.000Z', count: 2 },
      { minute: '2026-03-01T09:01:00.000Z', count: 0 },
      { minute: '2026-03-01T09:02:00.000Z', count: 1 },
    ]);
    expect(messagesPerMinute('countryCode\r\n')).toEqual([]);
  });
});

describe('follow-ups', () => {
  it('targets the failed, or the sent and delivered not read after some hours', () => {
    expect(audienceOf('failed')).toEqual({ statuses: ['FAILED'] });
    expect(audienceOf('unread', 24)).toEqual({ statuses: ['SENT', 'DELIVERED'], notReadAfterHours: 24 });
  });

  it("is a broadcast body without data, from the job's sender and template, with force only when asked", () => {
    const job = { broadcastName: 'Spring', template: { name: 'promo', language: 'en' }, fromPhoneNumber: '4915700000001' } as never;
    const form = followUpDefaults('failed', job);
    const body = followUpBody('failed', form, '4915700000001');
    expect(body).toEqual({
      broadcastName: 'Spring · follow-up to failed',
      fromPhoneNumber: '4915700000001',
      templateName: 'promo',
      templateLanguage: 'en',
      templateType: 'MARKETING',
      audience: { statuses: ['FAILED'] },
    });
    expect(body).not.toHaveProperty('data');
    expect(followUpBody('failed', { ...form, force: true }, '1')).toMatchObject({ force: true });
  });

  it('offers a follow-up only when someone is in its audience', () => {
    const view = (overrides: Partial<JobSummary>) => ({
      jobId: 'j',
      status: 'COMPLETED' as const,
      totalRecipients: 10,
      totalChunks: 1,
      summary: summary(overrides),
    });
    expect(hasAudience('failed', view({ failed: 0 }))).toBe(false);
    expect(hasAudience('unread', view({ sent: 5, read: 5 }))).toBe(false);
    expect(hasAudience('unread', view({ sent: 5, read: 4 }))).toBe(true);
  });
});

describe('the address and refused reads', () => {
  it('routes a campaign address, and answers the list for any other, a malformed percent-encoding included', () => {
    expect(routeOf('#/campaigns/pub_1')).toEqual({ page: 'campaign', jobId: 'pub_1' });
    expect(routeOf('#/campaigns/pub%5F1')).toEqual({ page: 'campaign', jobId: 'pub_1' });
    for (const hash of ['', '#/', '#/campaigns/', '#/campaigns/a/b', '#/campaigns/%', '#/campaigns/pub_%E0%A4%A', '#/campaigns/%zz']) {
      expect(routeOf(hash)).toEqual({ page: 'list' });
    }
  });

  it("signs out only when the key's own check refuses it: another organization's job (401) reads as not found", () => {
    expect(campaignReadOutcome({ status: 401 }, true)).toBe('not-found');
    expect(campaignReadOutcome({ status: 404 }, true)).toBe('not-found');
    expect(campaignReadOutcome({ status: 401 }, false)).toBe('signed-out');
    expect(campaignReadOutcome({ status: 403 }, false)).toBe('signed-out');
    // Passing or other faults are shown and tried again; the gateway's unknown route is not a missing campaign.
    expect(campaignReadOutcome({ status: 404, routeMissing: true }, true)).toBe('error');
    expect(campaignReadOutcome({ status: 429 }, true)).toBe('error');
    expect(campaignReadOutcome({ status: 503 }, true)).toBe('error');
    expect(campaignReadOutcome({ status: 403 }, true)).toBe('error');
    expect([401, 403].every(refusesKey)).toBe(true);
    expect([400, 404, 429, 500].some(refusesKey)).toBe(false);
  });
});
