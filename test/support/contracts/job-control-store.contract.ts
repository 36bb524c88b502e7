/**
 * What every JobControlStore does, as observed through the port (the in-memory fake in
 * test/unit/contracts, the DynamoDB adapter on dynalite in test/integration/contracts; where they
 * disagree, the adapter is the truth): the first cancellation and the first pause stay, a resume
 * removes only its own pause. The suite is given the stores it sets its jobs up with too.
 */
import type { JobControlStore, JobStore } from '../../../shared/broadcast/ports';
import { freshJobId, job, later, now } from './broadcast-contract-fixtures';

/** The port under test and the stores its tests set jobs up with. */
type Stores = JobStore & JobControlStore;

export function describeJobControlStoreContract(name: string, makeRepository: () => Stores | Promise<Stores>): void {
  describe(`JobControlStore contract: ${name}`, () => {
    let repository: Stores;
    beforeAll(async () => {
      repository = await makeRepository();
    });

    it('cancels once (the first time stays); an unknown job is neither cancelled nor read', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 1, 1), [1]);
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: false, createdAt: now.toISOString() });
      expect(await repository.cancelJob(jobId, now)).toBe(now.toISOString());
      expect(await repository.cancelJob(jobId, later)).toBe(now.toISOString());
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: true, createdAt: now.toISOString() });
      expect(await repository.cancelJob(freshJobId(), now)).toBeUndefined();
      expect(await repository.readJobControl(freshJobId())).toBeUndefined();
      expect((await repository.getJob(jobId))?.cancelReason).toBeUndefined();
    });

    it('records the first reason given with the cancellation, and keeps it', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 1, 1), [1]);
      expect(await repository.cancelJob(jobId, now, 'ORGANIZATION_SUSPENDED')).toBe(now.toISOString());
      expect(await repository.cancelJob(jobId, later, 'ANOTHER')).toBe(now.toISOString());
      expect(await repository.getJob(jobId)).toMatchObject({ cancelledAt: now.toISOString(), cancelReason: 'ORGANIZATION_SUSPENDED' });
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: true, createdAt: now.toISOString() });
    });

    it('the first pause stays; a resume removes only the pause set at its time', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 1, 1), [1]);
      const first = { pausedAt: now.toISOString(), reason: 'TEMPLATE_PAUSED', failsAt: later.toISOString() };
      expect(await repository.pauseJob(jobId, first)).toEqual(first);
      expect(await repository.pauseJob(jobId, { pausedAt: later.toISOString(), reason: 'TEMPLATE_DISABLED', failsAt: later.toISOString() })).toEqual(first);
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: false, createdAt: now.toISOString(), pause: first });
      expect(await repository.resumeJob(jobId, later.toISOString())).toBe(false);
      expect(await repository.resumeJob(jobId, first.pausedAt)).toBe(true);
      expect(await repository.resumeJob(jobId, first.pausedAt)).toBe(false);
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: false, createdAt: now.toISOString() });
      expect(await repository.pauseJob(freshJobId(), first)).toBeUndefined();
      expect(await repository.resumeJob(freshJobId(), first.pausedAt)).toBe(false);
    });

    it('a hold until resumed (Meta refused the account) keeps its code and words, replaces a template pause and is never replaced by one', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 1, 1), [1]);
      const template = { pausedAt: now.toISOString(), reason: 'TEMPLATE_PAUSED', failsAt: later.toISOString() };
      const account = {
        pausedAt: later.toISOString(),
        reason: 'ACCOUNT_MESSAGING_LIMITED',
        pausedBy: 'meta' as const,
        code: 131064,
        text: 'Messaging limit reached',
      };
      expect(await repository.pauseJob(jobId, template)).toEqual(template);
      expect(await repository.pauseJob(jobId, account)).toEqual(account);
      expect(await repository.pauseJob(jobId, { ...account, pausedAt: now.toISOString(), code: 131042 })).toEqual(account);
      expect(await repository.pauseJob(jobId, template)).toEqual(account);
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: false, createdAt: now.toISOString(), pause: account });
      expect(await repository.getJob(jobId)).toMatchObject({ pausedAt: account.pausedAt, pausedBy: 'meta', pauseCode: 131064, pauseText: account.text });
      expect(await repository.resumeJob(jobId, template.pausedAt)).toBe(false);
      expect(await repository.resumeJob(jobId, account.pausedAt)).toBe(true);
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: false, createdAt: now.toISOString() });
      expect(await repository.getJob(jobId)).not.toHaveProperty('pauseCode');
    });

    it("a person's pause keeps who paused it (the credential), read with the control and removed by the resume", async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 1, 1), [1]);
      const pause = { pausedAt: now.toISOString(), reason: 'PAUSED_BY_USER', pausedBy: 'user' as const, by: 'cred_ops' };
      expect(await repository.pauseJob(jobId, pause)).toEqual(pause);
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: false, createdAt: now.toISOString(), pause });
      expect(await repository.getJob(jobId)).toMatchObject({ pausedBy: 'user', pausedByCredentialId: 'cred_ops' });
      expect(await repository.resumeJob(jobId, pause.pausedAt, later)).toBe(true);
      expect(await repository.getJob(jobId)).not.toHaveProperty('pausedByCredentialId');
    });

    it("a canary's halt keeps its measured rates beside the thresholds, read with the control and removed by the resume", async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 1, 1), [1]);
      const halt = {
        stage: 'canary' as const,
        measured: { optOutRate: 0.03, failureRate: 0.01, blockRate: 0, qualityDrop: false },
        thresholds: { optOutRate: 0.01, qualityDrop: true },
        exceeded: ['optOutRate' as const],
        sent: 100,
        counts: { optOuts: 3, failures: 1, blocks: 0 },
      };
      const pause = { pausedAt: now.toISOString(), reason: 'CANARY_HALTED', pausedBy: 'canary' as const, halt };
      expect(await repository.pauseJob(jobId, pause)).toEqual(pause);
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: false, createdAt: now.toISOString(), pause });
      expect(await repository.getJob(jobId)).toMatchObject({ pausedBy: 'canary', pauseReason: 'CANARY_HALTED', pauseHalt: halt });
      expect(await repository.resumeJob(jobId, pause.pausedAt, later)).toBe(true);
      expect(await repository.getJob(jobId)).not.toHaveProperty('pauseHalt');
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: false, createdAt: now.toISOString() });
    });

    it('a refusal seen before a resume does not hold the job again; one seen after it does', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 1, 1), [1]);
      const hold = (at: Date) => ({
        pausedAt: at.toISOString(),
        reason: 'ACCOUNT_LOCKED',
        pausedBy: 'meta' as const,
        code: 131031,
        text: 'Account has been locked',
      });
      const first = hold(now);
      expect(await repository.pauseJob(jobId, first)).toEqual(first);
      const resumedAt = new Date(now.getTime() + 1_000);
      expect(await repository.resumeJob(jobId, first.pausedAt, resumedAt)).toBe(true);
      expect(await repository.pauseJob(jobId, hold(new Date(now.getTime() + 500)))).toBeUndefined();
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: false, createdAt: now.toISOString() });
      const after = hold(new Date(now.getTime() + 2_000));
      expect(await repository.pauseJob(jobId, after)).toEqual(after);
    });

    it('keeps each refused calling code once, read with the control; an unknown job is left alone', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 1, 1), [1]);
      await repository.refuseCountry(jobId, '91');
      await repository.refuseCountry(jobId, '44');
      await repository.refuseCountry(jobId, '91');
      expect(await repository.readJobControl(jobId)).toEqual({ cancelled: false, createdAt: now.toISOString(), refusedCountries: ['44', '91'] });
      await repository.refuseCountry(freshJobId(), '91');
      expect(await repository.readJobControl(freshJobId())).toBeUndefined();
    });
  });
}
