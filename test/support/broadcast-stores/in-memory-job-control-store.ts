/** JobControlStore in memory, as DynamoDbJobControlStore: the first cancellation and the first pause stay; a resume removes only its own pause. */
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import type { JobControl, JobControlStore, JobPause } from '../../../shared/broadcast/ports';
import type { InMemoryBroadcastState } from './in-memory-broadcast-state';

export class InMemoryJobControlStore implements JobControlStore {
  constructor(private readonly state: InMemoryBroadcastState) {}

  async cancelJob(jobId: string, now: Date, reason?: string): Promise<string | undefined> {
    this.state.touch('cancelJob');
    const job = this.state.jobs.get(jobId);
    if (!job) return undefined;
    job.cancelledAt ??= now.toISOString();
    if (reason !== undefined) job.cancelReason ??= reason;
    return job.cancelledAt;
  }

  async readJobControl(jobId: string): Promise<JobControl | undefined> {
    this.state.touch('readJobControl');
    const job = this.state.jobs.get(jobId);
    if (!job) return undefined;
    const pause = pauseOfJob(job);
    const refused = [...(job.refusedCountries ?? [])].sort();
    return {
      cancelled: job.cancelledAt !== undefined,
      createdAt: job.createdAt,
      ...(pause ? { pause } : {}),
      ...(refused.length > 0 ? { refusedCountries: refused } : {}),
    };
  }

  async refuseCountry(jobId: string, callingCode: string): Promise<void> {
    this.state.touch('refuseCountry');
    const job = this.state.jobs.get(jobId);
    if (job && !(job.refusedCountries ?? []).includes(callingCode)) job.refusedCountries = [...(job.refusedCountries ?? []), callingCode];
  }

  async pauseJob(jobId: string, pause: JobPause): Promise<JobPause | undefined> {
    this.state.touch('pauseJob');
    const job = this.state.jobs.get(jobId);
    if (!job) return undefined;
    // The first pauser wins, except that a hold until resumed (no deadline) replaces a template pause.
    const held = pause.failsAt === undefined;
    const afterResume = !held || job.resumedAt === undefined || job.resumedAt < pause.pausedAt;
    const replaces = afterResume && (job.pausedAt === undefined || (held && job.pauseFailsAt !== undefined));
    if (replaces) {
      job.pausedAt = pause.pausedAt;
      job.pauseReason = pause.reason;
      setOrDelete(job, 'pauseFailsAt', pause.failsAt);
      setOrDelete(job, 'pausedBy', pause.pausedBy);
      setOrDelete(job, 'pauseCode', pause.code);
      setOrDelete(job, 'pauseText', pause.text);
      setOrDelete(job, 'pausedByCredentialId', pause.by);
      setOrDelete(job, 'pauseHalt', pause.halt);
    }
    return pauseOfJob(job);
  }

  async resumeJob(jobId: string, pausedAt: string, at?: Date): Promise<boolean> {
    this.state.touch('resumeJob');
    const job = this.state.jobs.get(jobId);
    if (job?.pausedAt !== pausedAt) return false;
    if (at !== undefined) job.resumedAt = at.toISOString();
    delete job.pausedAt;
    delete job.pauseReason;
    delete job.pauseFailsAt;
    delete job.pausedBy;
    delete job.pauseCode;
    delete job.pauseText;
    delete job.pausedByCredentialId;
    delete job.pauseHalt;
    return true;
  }
}

function pauseOfJob(job: BroadcastJob): JobPause | undefined {
  if (job.pausedAt === undefined) return undefined;
  return {
    pausedAt: job.pausedAt,
    reason: job.pauseReason ?? '',
    ...(job.pauseFailsAt !== undefined ? { failsAt: job.pauseFailsAt } : {}),
    ...(job.pausedBy !== undefined ? { pausedBy: job.pausedBy } : {}),
    ...(job.pauseCode !== undefined ? { code: job.pauseCode } : {}),
    ...(job.pauseText !== undefined ? { text: job.pauseText } : {}),
    ...(job.pausedByCredentialId !== undefined ? { by: job.pausedByCredentialId } : {}),
    ...(job.pauseHalt !== undefined ? { halt: job.pauseHalt } : {}),
  };
}

function setOrDelete<K extends 'pauseFailsAt' | 'pausedBy' | 'pauseCode' | 'pauseText' | 'pausedByCredentialId' | 'pauseHalt'>(
  job: BroadcastJob,
  key: K,
  value: BroadcastJob[K] | undefined,
): void {
  if (value === undefined) delete job[key];
  else job[key] = value;
}
