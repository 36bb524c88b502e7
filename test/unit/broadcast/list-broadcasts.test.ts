/**
 * The broadcasts list over the in-memory repository: order, range and status filters, cursor
 * paging (every job exactly once), the key's scope, the items' fields, and the query's rules.
 */
import { newJob } from '../../../shared/broadcast/job-fan-out';
import { listBroadcasts, MAX_EXAMINED, type BroadcastListItem, type BroadcastsQuery } from '../../../shared/broadcast/list-broadcasts';
import { broadcastsQuerySchema } from '../../../shared/broadcast/list-broadcasts.schema';
import { getJobStatus } from '../../../shared/broadcast/get-job-status';
import { InvalidListCursorError } from '../../../shared/broadcast/errors';
import type { ScopedCaller } from '../../../shared/broadcast/key-scope';
import { parseRequest } from '../../../shared/http/validation';
import { RequestValidationError } from '../../../shared/http/errors';
import { InMemoryBroadcastRepository, ORG, OTHER_ORG, SECOND_SENDER, SENDER } from '../../support/broadcast-fakes';

const HOUR = 3_600_000;
const reading = { now: new Date('2026-03-02T00:00:00.000Z'), unconfirmedAfterMs: 24 * HOUR };
const templateRef = { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' };
const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 9, minute));
const organization: ScopedCaller = { organizationId: ORG };

type JobOptions = { organizationId?: string; sender?: typeof SENDER; credentialId?: string; recipients?: number };

async function addTemplateJob(broadcasts: InMemoryBroadcastRepository, jobId: string, minute: number, options: JobOptions = {}) {
  const recipients = options.recipients ?? 2;
  const job = newJob(
    { kind: 'template', broadcastName: `campaign ${jobId}`, template: templateRef },
    {
      jobId,
      organizationId: options.organizationId ?? ORG,
      sender: options.sender ?? SENDER,
      totalRecipients: recipients,
      exposed: recipients > 1000,
      now: at(minute),
      createdByCredentialId: options.credentialId ?? 'cred_1',
    },
  );
  await broadcasts.createJob(job, [recipients]);
  return job;
}

/** Runs the job's only chunk to its end: every recipient sent, or the first `failed` failed. */
async function finish(broadcasts: InMemoryBroadcastRepository, jobId: string, recipients: number, doneMinute: number, failed = 0) {
  await broadcasts.markChunkStarted(jobId, 0, at(doneMinute));
  await broadcasts.recordOutcomes(
    jobId,
    0,
    Array.from({ length: recipients }, (_, index) =>
      index < failed
        ? { index, to: `9198${index}`, status: 'FAILED' as const, failureReasonCode: '131026', attempts: 1, updatedAt: at(doneMinute).toISOString() }
        : { index, to: `9198${index}`, status: 'SENT' as const, messageId: `wamid.${jobId}.${index}`, attempts: 1, updatedAt: at(doneMinute).toISOString() },
    ),
  );
  await broadcasts.reconcileChunk(jobId, 0, at(doneMinute));
}

const list = (broadcasts: InMemoryBroadcastRepository, query: Partial<BroadcastsQuery> = {}, caller = organization) =>
  listBroadcasts(broadcasts, caller, { limit: 20, ...query }, reading);

const ids = (items: readonly BroadcastListItem[]) => items.map((item) => item.jobId);

describe('listBroadcasts', () => {
  it('lists the organization’s jobs newest first with the status endpoint’s state and summary', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    await addTemplateJob(broadcasts, 'pub_a', 1);
    await addTemplateJob(broadcasts, 'pub_b', 2);
    await addTemplateJob(broadcasts, 'pub_c', 3);
    await addTemplateJob(broadcasts, 'pub_other', 4, { organizationId: OTHER_ORG });
    await finish(broadcasts, 'pub_a', 2, 10, 1);
    await broadcasts.markChunkStarted('pub_b', 0, at(11));

    const page = await list(broadcasts);

    expect(ids(page.broadcasts)).toEqual(['pub_c', 'pub_b', 'pub_a']);
    expect(page.nextCursor).toBeNull();
    expect(page.broadcasts.map((item) => item.status)).toEqual(['QUEUED_FOR_PROCESSING', 'PROCESSING', 'COMPLETED_WITH_FAILURES']);
    for (const item of page.broadcasts) {
      const status = await getJobStatus(broadcasts, organization, item.jobId, reading);
      expect(item.summary).toEqual(status.summary);
      expect(item.status).toBe(status.status);
    }
    expect(page.broadcasts[2]).toEqual({
      jobId: 'pub_a',
      kind: 'template',
      broadcastName: 'campaign pub_a',
      fromPhoneNumber: SENDER.phoneNumber,
      template: { name: 'order_update', language: 'en_US' },
      status: 'COMPLETED_WITH_FAILURES',
      totalRecipients: 2,
      summary: expect.objectContaining({ sent: 1, failed: 1, pending: 0, chunksDone: 1, chunksTotal: 1, failuresByReason: { '131026': 1 } }),
      createdAt: at(1).toISOString(),
      finishedAt: at(10).toISOString(),
      scheduledAt: null,
    });
    expect(page.broadcasts[0]!.finishedAt).toBeNull();
    expect(page.broadcasts[1]!.finishedAt).toBeNull();
  });

  it('says null for the name and template of a free-form job', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    const job = newJob(
      { kind: 'freeform', messageType: 'text' },
      { jobId: 'msg_1', organizationId: ORG, sender: SENDER, totalRecipients: 1, exposed: false, now: at(1) },
    );
    await broadcasts.createJob(job, [1]);

    const [item] = (await list(broadcasts)).broadcasts;

    expect(item).toMatchObject({ jobId: 'msg_1', kind: 'freeform', broadcastName: null, template: null, totalRecipients: 1 });
  });

  it('keeps jobs created within from and to (both inclusive)', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    for (const minute of [1, 2, 3, 4, 5]) await addTemplateJob(broadcasts, `pub_${minute}`, minute);

    const page = await list(broadcasts, { from: at(2).toISOString(), to: at(4).toISOString() });

    expect(ids(page.broadcasts)).toEqual(['pub_4', 'pub_3', 'pub_2']);
  });

  it('filters by status, reading on through the index until the page is full', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    for (let minute = 0; minute < 30; minute += 1) {
      await addTemplateJob(broadcasts, `pub_${String(minute).padStart(2, '0')}`, minute);
      if (minute % 10 === 0) await finish(broadcasts, `pub_${String(minute).padStart(2, '0')}`, 2, 40);
    }

    const completed = await list(broadcasts, { status: 'COMPLETED', limit: 2 });
    const rest = await list(broadcasts, { status: 'COMPLETED', limit: 2, cursor: completed.nextCursor! });

    expect(ids(completed.broadcasts)).toEqual(['pub_20', 'pub_10']);
    expect(completed.nextCursor).not.toBeNull();
    expect(ids(rest.broadcasts)).toEqual(['pub_00']);
    expect(rest.nextCursor).toBeNull();
    expect((await list(broadcasts, { status: 'FAILED' })).broadcasts).toEqual([]);
  });

  it('pages with the cursor so that every job is listed exactly once, ties on createdAt included', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    const all: string[] = [];
    for (let index = 0; index < 23; index += 1) {
      const jobId = `pub_${String(index).padStart(2, '0')}`;
      await addTemplateJob(broadcasts, jobId, Math.floor(index / 3)); // three jobs per minute
      all.push(jobId);
    }

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list(broadcasts, { limit: 5, cursor });
      expect(page.broadcasts.length).toBeLessThanOrEqual(5);
      seen.push(...ids(page.broadcasts));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined);

    expect(pages).toBe(5);
    expect(seen).toEqual([...all].sort().reverse());
  });

  it('refuses a cursor issued for other filters, or that is not a cursor', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    for (const minute of [1, 2, 3]) await addTemplateJob(broadcasts, `pub_${minute}`, minute);
    const { nextCursor } = await list(broadcasts, { limit: 1 });

    await expect(list(broadcasts, { limit: 1, status: 'COMPLETED', cursor: nextCursor! })).rejects.toThrow(InvalidListCursorError);
    await expect(list(broadcasts, { limit: 1, from: at(0).toISOString(), cursor: nextCursor! })).rejects.toThrow(InvalidListCursorError);
    await expect(list(broadcasts, { cursor: 'bm90LWEtY3Vyc29y' })).rejects.toThrow(InvalidListCursorError);
    await expect(list(broadcasts, { cursor: Buffer.from('{"c":"x","j":"pub_1","s":"","f":"","t":""}').toString('base64url') })).rejects.toThrow(
      InvalidListCursorError,
    );
  });

  it('shows a key bound to a sender only that sender’s jobs, and a generate-key key only its own', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    await addTemplateJob(broadcasts, 'pub_first', 1);
    await addTemplateJob(broadcasts, 'pub_second', 2, { sender: SECOND_SENDER });
    await addTemplateJob(broadcasts, 'leg_minted', 3, { credentialId: 'cred_minted' });
    const boundToSecond: ScopedCaller = { organizationId: ORG, credentialId: 'cred_2', scope: { kind: 'sender', phoneNumber: SECOND_SENDER.phoneNumber } };
    const minted: ScopedCaller = { organizationId: ORG, credentialId: 'cred_minted', scope: { kind: 'earlier-sender', phoneNumber: SENDER.phoneNumber } };

    expect(ids((await list(broadcasts, {}, boundToSecond)).broadcasts)).toEqual(['pub_second']);
    expect(ids((await list(broadcasts, {}, minted)).broadcasts)).toEqual(['leg_minted']);
    expect(ids((await list(broadcasts, {}, { organizationId: OTHER_ORG })).broadcasts)).toEqual([]);
  });

  it('stops after looking at a bounded number of jobs and continues from there', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    const total = MAX_EXAMINED + 10;
    for (let index = 0; index < total; index += 1) {
      const job = newJob(
        { kind: 'template', broadcastName: 'b', template: templateRef },
        {
          jobId: `pub_${String(index).padStart(4, '0')}`,
          organizationId: ORG,
          sender: SENDER,
          totalRecipients: 1,
          exposed: false,
          now: new Date(at(0).getTime() + index * 1000),
        },
      );
      await broadcasts.createJob(job, [1]);
    }
    await finish(broadcasts, 'pub_0000', 1, 59);

    const first = await list(broadcasts, { status: 'COMPLETED' });
    const second = await list(broadcasts, { status: 'COMPLETED', cursor: first.nextCursor! });

    expect(first.broadcasts).toEqual([]);
    expect(first.nextCursor).not.toBeNull();
    expect(ids(second.broadcasts)).toEqual(['pub_0000']);
    expect(second.nextCursor).toBeNull();
  });
});

describe('broadcastsQuerySchema', () => {
  const parse = (query: Record<string, string>) => parseRequest(broadcastsQuerySchema, query, 'query');
  const messageOf = (query: Record<string, string>) => {
    try {
      parse(query);
    } catch (error) {
      expect(error).toBeInstanceOf(RequestValidationError);
      return (error as Error).message;
    }
    throw new Error('expected a validation error');
  };

  it('defaults the limit to 20 and normalizes the bounds to UTC ISO times', () => {
    expect(parse({})).toEqual({ limit: 20 });
    expect(parse({ from: '2026-03-01T10:00:00+01:00', to: '2026-03-01T09:30Z', limit: '100', status: 'FAILED' })).toEqual({
      from: '2026-03-01T09:00:00.000Z',
      to: '2026-03-01T09:30:00.000Z',
      limit: 100,
      status: 'FAILED',
    });
  });

  it('names the field and the rule', () => {
    expect(messageOf({ status: 'DONE' })).toBe(
      'status must be one of SCHEDULED, QUEUED_FOR_PROCESSING, PROCESSING, PAUSED, COMPLETED, COMPLETED_WITH_FAILURES, FAILED, CANCELLED',
    );
    expect(messageOf({ limit: '0' })).toBe('limit must be a whole number from 1 to 100');
    expect(messageOf({ limit: '101' })).toBe('limit must be a whole number from 1 to 100');
    expect(messageOf({ limit: 'ten' })).toBe('limit must be a whole number from 1 to 100');
    expect(messageOf({ from: '2026-03-01' })).toBe('from must be an ISO 8601 date-time with a time zone, e.g. 2026-03-01T09:00:00Z');
    expect(messageOf({ to: '2026-13-45T99:00:00Z' })).toBe('to must be an ISO 8601 date-time with a time zone, e.g. 2026-03-01T09:00:00Z');
    expect(messageOf({ from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' })).toBe('to must not be before from');
    expect(messageOf({ cursor: 'not a cursor!' })).toBe('cursor must be a nextCursor returned by this endpoint');
  });
});

describe('a paused job in the status answer and the list', () => {
  it('shows `pause` (reason, since, failsAt) only while the job reads PAUSED; other answers keep their shape', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    await addTemplateJob(broadcasts, 'pub_paused', 1);
    await broadcasts.markChunkStarted('pub_paused', 0, at(2));
    const before = await getJobStatus(broadcasts, organization, 'pub_paused', reading);
    expect(before).not.toHaveProperty('pause');

    const pause = { pausedAt: at(3).toISOString(), reason: 'TEMPLATE_PAUSED', failsAt: new Date(at(3).getTime() + 6 * HOUR).toISOString() };
    await broadcasts.pauseJob('pub_paused', pause);
    // The first pauser wins: a later pause changes nothing.
    await broadcasts.pauseJob('pub_paused', { pausedAt: at(4).toISOString(), reason: 'TEMPLATE_DISABLED', failsAt: at(5).toISOString() });
    const paused = await getJobStatus(broadcasts, organization, 'pub_paused', reading);
    expect(paused).toEqual({
      ...before,
      status: 'PAUSED',
      pause: { reason: 'TEMPLATE_PAUSED', since: pause.pausedAt, failsAt: pause.failsAt, pausedBy: 'meta' },
    });
    const listed = await listBroadcasts(broadcasts, organization, { limit: 10 }, reading);
    expect(listed.broadcasts[0]).toMatchObject({ jobId: 'pub_paused', status: 'PAUSED', pause: paused.pause });

    await broadcasts.resumeJob('pub_paused', pause.pausedAt);
    const resumed = await getJobStatus(broadcasts, organization, 'pub_paused', reading);
    expect(resumed).toEqual(before);
    expect((await listBroadcasts(broadcasts, organization, { limit: 10 }, reading)).broadcasts[0]).not.toHaveProperty('pause');
  });
});
