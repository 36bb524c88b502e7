import { PassThrough } from 'node:stream';
import { BroadcastApiError, type BroadcastClient, type BroadcastRequest, type JobStatus } from '../../../../client/broadcast-client';
import { followJobs, formatSummary } from '../../../../scripts/broadcast/job-progress';
import { sendCommand } from '../../../../scripts/broadcast/send-command';
import { AlreadySentError, CliUsageError, TemplateChoiceError } from '../../../../scripts/broadcast/errors';
import { resendKeyFor } from '../../../../scripts/broadcast/send-plan';

const job = (jobId: string, total: number, pending: number, status: string, extra: Record<string, unknown> = {}): JobStatus => ({
  jobId,
  status,
  totalRecipients: total,
  totalChunks: Math.ceil(total / 1000),
  summary: { sent: total - pending, failed: 0, unknown: 0, pending, chunksDone: 0, chunksTotal: 1, ...extra },
});

/** A fake API: templates of the demo, accepts every send, each job finishes after `pollsToFinish` status reads. */
function fakeClient(pollsToFinish = 2) {
  const sends: Array<{ body: BroadcastRequest; key: string }> = [];
  const reads = new Map<string, number>();
  // Like the service: a key seen before answers its first job again, marked replayed, and sends nothing.
  const jobOfKey = new Map<string, string>();
  const client = {
    listTemplates: async () => [
      {
        name: 'order_update',
        language: 'en_US',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }],
      },
    ],
    sendTemplateBroadcast: async (body: BroadcastRequest, key: string) => {
      const earlier = jobOfKey.get(key);
      if (earlier) return { httpStatus: 202, jobId: earlier, message: 'Broadcast accepted', replayed: true };
      sends.push({ body, key });
      jobOfKey.set(key, `pub_${sends.length}`);
      return { httpStatus: 202, jobId: `pub_${sends.length}`, message: 'Broadcast accepted' };
    },
    jobStatus: async (jobId: string) => {
      const count = (reads.get(jobId) ?? 0) + 1;
      reads.set(jobId, count);
      const total = sends[Number(jobId.slice(4)) - 1]!.body.data.length;
      return count >= pollsToFinish ? job(jobId, total, 0, 'COMPLETED') : job(jobId, total, total, 'QUEUED_FOR_PROCESSING');
    },
    recipientsCsv: async () => '',
    listBroadcasts: async () => ({ broadcasts: [], nextCursor: null }),
  } satisfies BroadcastClient;
  return { client, sends, reads };
}

const csvOf = (rows: number) =>
  Buffer.from(
    `countryCode,toPhoneNumber,param1,param2\n${Array.from({ length: rows }, (_, index) => `91,${9000000000 + index},N${index},O${index}`).join('\n')}\n`,
  );

function output() {
  const out: string[] = [];
  return {
    out,
    output: {
      out: (line: string) => out.push(line),
      err: (line: string) => out.push(`ERR ${line}`),
      progressStream: new PassThrough(),
      sleep: async () => undefined,
    },
  };
}

const options = (fileContent: Buffer) => ({
  csvPath: '/data/march.csv',
  fileContent,
  fromPhoneNumber: '15550100001',
  templateName: 'order_update',
  templateLanguage: 'en_US',
  wait: true,
  pollIntervalMs: 0,
});

describe('sendCommand', () => {
  it('sends 10,001 rows as two keyed requests with the template category, follows both jobs and prints the summary', async () => {
    const { client, sends } = fakeClient();
    const { out, output: sink } = output();
    const outcome = await sendCommand(client, options(csvOf(10_001)), sink);
    expect(sends.map(({ body }) => [body.broadcastName, body.templateType, body.data.length])).toEqual([
      ['march (part 1 of 2)', 'UTILITY', 10_000],
      ['march (part 2 of 2)', 'UTILITY', 1],
    ]);
    expect(sends[1]!.body.data[0]).toEqual({ countryCode: '91', toPhoneNumber: '9000010000', templateParams: ['N10000', 'O10000'] });
    expect(sends.map(({ key }) => key)).toEqual([expect.stringMatching(/-part-1-of-2$/), expect.stringMatching(/-part-2-of-2$/)]);
    expect(outcome.jobs.map((state) => state.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(out).toContain('part 2 of 2 (lines 10002-10002, 1 recipient): job pub_2: Broadcast accepted');
    expect(out).toContain('overall  2 jobs  10001 recipients: sent 10001, delivered 0, read 0, failed 0, unknown 0, unconfirmed 0, cancelled 0, pending 0');
    // The closing hint names each job's own command, no placeholder to fill in.
    expect(out.slice(-3)).toEqual([
      'per-recipient results:',
      '  npm run -s broadcast -- report pub_1 --out pub_1.csv',
      '  npm run -s broadcast -- report pub_2 --out pub_2.csv',
    ]);
  });

  it('the same file gives the same keys on a second run', async () => {
    const first = fakeClient();
    const second = fakeClient();
    await sendCommand(first.client, options(csvOf(3)), output().output);
    await sendCommand(second.client, { ...options(csvOf(3)), csvPath: '/elsewhere/renamed.csv' }, output().output);
    expect(second.sends.map(({ key }) => key)).toEqual(first.sends.map(({ key }) => key));
  });

  it('says so when a run was a replay: every part sent before, nothing sent again', async () => {
    const { client, sends } = fakeClient();
    const firstRun = output();
    await sendCommand(client, options(csvOf(3)), firstRun.output);
    expect(firstRun.out.some((line) => line.startsWith('a replay'))).toBe(false);
    const again = output();
    await sendCommand(client, options(csvOf(3)), again.output);
    expect(sends).toHaveLength(1);
    expect(again.out).toContain(
      'part 1 of 1 (lines 2-4, 3 recipients): job pub_1: sent before with this file (same Idempotency-Key): nothing sent again, following it',
    );
    expect(again.out).toContain('a replay: every part was sent before with this file, nothing new was sent; the summary below is of those jobs');
  });

  it('refuses a template the sender does not have, listing the available ones, and sends nothing', async () => {
    const { client, sends } = fakeClient();
    await expect(sendCommand(client, { ...options(csvOf(3)), templateName: 'spring_sale', templateLanguage: 'en' }, output().output)).rejects.toThrow(
      new TemplateChoiceError('template spring_sale (en) is not an approved template of 15550100001; available: order_update (en_US)'),
    );
    expect(sends).toEqual([]);
  });

  it("checks the options with the API's request schema before any request, part names included", async () => {
    const { client, sends } = fakeClient();
    const listTemplates = jest.spyOn(client, 'listTemplates');
    await expect(sendCommand(client, { ...options(csvOf(2)), fromPhoneNumber: '+15550100001' }, output().output)).rejects.toThrow(
      new CliUsageError('--from: fromPhoneNumber must contain digits only (no +, spaces or punctuation)'),
    );
    // 190 characters fit one request's name; ' (part 2 of 2)' takes the second part's past 200.
    await sendCommand(fakeClient().client, { ...options(csvOf(2)), broadcastName: 'n'.repeat(190) }, output().output);
    await expect(sendCommand(client, { ...options(csvOf(10_001)), broadcastName: 'n'.repeat(190) }, output().output)).rejects.toThrow(
      new CliUsageError('--name: broadcastName must be at most 200 characters'),
    );
    expect(listTemplates).not.toHaveBeenCalled();
    expect(sends).toEqual([]);
  });

  it('does not follow scheduled jobs: it prints how to report on them', async () => {
    const { client, reads } = fakeClient();
    const { out, output: sink } = output();
    await sendCommand(client, { ...options(csvOf(2)), scheduledAt: '2026-03-01T09:00:00Z' }, sink);
    expect(reads.size).toBe(0);
    expect(out.slice(-2)).toEqual(['scheduled for 2026-03-01T09:00:00Z; follow with:', '  npm run -s broadcast -- report pub_1 --out pub_1.csv']);
  });
});

describe('sendCommand with a file the service reports as sent before (its key past the 48-hour window)', () => {
  /** The service's 422 for a key whose window is over, naming the job it was used for. */
  const usedBefore = (jobId: string, acceptedAt = '2026-03-01T09:00:00.000Z') =>
    new BroadcastApiError(
      `POST send-template-broadcast: 422 This Idempotency-Key was already used for job ${jobId}, accepted at ${acceptedAt}; …`,
      422,
      'IDEMPOTENCY_KEY_REUSED',
      { jobId, acceptedAt },
    );
  /** Keys the service has seen, with the job each was used for (past its window). */
  function serviceWithHistory(usedKeys: Map<string, string>) {
    const kit = fakeClient();
    const accept = kit.client.sendTemplateBroadcast;
    const attempts: string[] = [];
    kit.client.sendTemplateBroadcast = async (body: BroadcastRequest, key: string) => {
      attempts.push(key);
      const earlier = usedKeys.get(key);
      if (earlier) throw usedBefore(earlier);
      return accept(body, key);
    };
    return { ...kit, attempts };
  }

  it('stops with "this file was already sent as job … on …" and the way to send it again; nothing is sent', async () => {
    const first = fakeClient();
    await sendCommand(first.client, options(csvOf(3)), output().output);
    const plainKey = first.sends[0]!.key;
    const service = serviceWithHistory(new Map([[plainKey, 'pub_march']]));
    const attempt = sendCommand(service.client, options(csvOf(3)), output().output);
    await expect(attempt).rejects.toThrow(AlreadySentError);
    await expect(attempt).rejects.toThrow('this file was already sent as job pub_march on 2026-03-01 09:00 UTC; run again with --resend to send it again');
    expect(service.sends).toEqual([]);
  });

  it('names the part of a file in several parts', () => {
    expect(new AlreadySentError(2, 3, 'pub_x', '2026-03-01T09:00:00.000Z').message).toBe(
      'part 2 of 3 of this file was already sent as job pub_x on 2026-03-01 09:00 UTC; run again with --resend to send it again',
    );
  });

  it('--resend sends it again under a key derived from the earlier job, and again past a first resend; other refusals still stop the run', async () => {
    const first = fakeClient();
    await sendCommand(first.client, options(csvOf(3)), output().output);
    const plainKey = first.sends[0]!.key;
    const resentKey = resendKeyFor(plainKey, 'pub_march');
    const service = serviceWithHistory(new Map([[plainKey, 'pub_march']]));
    const { out, output: sink } = output();
    await sendCommand(service.client, { ...options(csvOf(3)), resend: true }, sink);
    expect(service.attempts).toEqual([plainKey, resentKey]);
    expect(service.sends.map(({ key }) => key)).toEqual([resentKey]);
    expect(out).toContain('ERR this file was already sent as job pub_march on 2026-03-01 09:00 UTC; sending it again (--resend)');

    // Two resends later: the plain key names the first job, the first resend's key the resend's job.
    const later = serviceWithHistory(
      new Map([
        [plainKey, 'pub_march'],
        [resentKey, 'pub_resent'],
      ]),
    );
    await sendCommand(later.client, { ...options(csvOf(3)), resend: true }, output().output);
    expect(later.sends.map(({ key }) => key)).toEqual([resendKeyFor(resentKey, 'pub_resent')]);

    const refusing = fakeClient();
    refusing.client.sendTemplateBroadcast = async () => {
      throw new BroadcastApiError(
        'POST send-template-broadcast: 422 This Idempotency-Key was already used with a different request body',
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
    };
    await expect(sendCommand(refusing.client, { ...options(csvOf(3)), resend: true }, output().output)).rejects.toThrow(/different request body/);
  });
});

describe('followJobs', () => {
  it('polls only unfinished jobs until every one is terminal, reporting accounted-for recipients', async () => {
    const states: Record<string, JobStatus[]> = {
      pub_a: [
        job('pub_a', 10, 10, 'QUEUED_FOR_PROCESSING'),
        job('pub_a', 10, 4, 'PROCESSING'),
        job('pub_a', 10, 0, 'COMPLETED_WITH_FAILURES', { sent: 9, failed: 1 }),
      ],
      pub_b: [job('pub_b', 5, 0, 'COMPLETED')],
    };
    const polled: string[] = [];
    const progress: number[] = [];
    const final = await followJobs({ jobStatus: async (jobId) => (polled.push(jobId), states[jobId]!.shift()!) }, ['pub_a', 'pub_b'], {
      pollIntervalMs: 0,
      sleep: async () => undefined,
      onProgress: (accounted) => progress.push(accounted),
    });
    expect(polled).toEqual(['pub_a', 'pub_b', 'pub_a', 'pub_a']);
    expect(progress).toEqual([5, 11, 15]);
    expect(formatSummary(final)).toEqual([
      'pub_a  COMPLETED_WITH_FAILURES  10 recipients: sent 9, delivered 0, read 0, failed 1, unknown 0, unconfirmed 0, cancelled 0, pending 0',
      'pub_b  COMPLETED  5 recipients: sent 5, delivered 0, read 0, failed 0, unknown 0, unconfirmed 0, cancelled 0, pending 0',
      'overall  2 jobs  15 recipients: sent 14, delivered 0, read 0, failed 1, unknown 0, unconfirmed 0, cancelled 0, pending 0',
    ]);
  });
});
