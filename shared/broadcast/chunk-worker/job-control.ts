/**
 * Job control for the chunk worker: whether the job was cancelled or its template is not sendable
 * (the one job-control read, re-read while sending at a pace that bounds the sends after a cancel),
 * ending a pause once the template is sendable again, and holding (or, past the pause's deadline,
 * failing) what a paused job has left, or holding it until resumed when Meta refused the account.
 * docs/BROADCAST.md "Cancelling", "When Meta pauses a template" and "When Meta refuses the account".
 */
import type { ChunkRecipient, OutboundMessage } from '../chunk-message';
import type { ChunkReport } from '../chunk-outcomes';
import type { Clock, JobControl, JobPause, TemplateState } from '../ports';
import { TEMPLATE_PAUSED_FAILURE } from '../../sending/failure-reasons';
import type { ProcessChunkDependencies } from './chunk-worker-dependencies';
import { settleRest } from './settle-chunk';
import { isHeldUntilResumed } from '../account-hold';

/** The longest a worker's view of its job's cancellation may be stale (slow accounts). */
export const CANCELLATION_REFRESH_MS = 250;
/** The shortest (fast accounts: one consistent read of one attribute per this long per worker). */
export const CANCELLATION_REFRESH_MIN_MS = 20;

/**
 * How often to re-read the cancellation: what the account's pace can start within it stays at half
 * the worker's in-flight sends, so after a cancel is acknowledged at most the sends in flight at that
 * moment and as many again go out (at 80/s with 16 in flight: every 100 ms, 8 sends).
 */
export const cancellationRefreshMs = (messagesPerSecond: number, maxInFlight: number): number =>
  Math.min(CANCELLATION_REFRESH_MS, Math.max(CANCELLATION_REFRESH_MIN_MS, Math.floor((maxInFlight * 1000) / (2 * Math.max(1, messagesPerSecond)))));

/**
 * How often a running worker re-reads its template's recorded state. Slower than the cancellation:
 * a pause is also seen at once from the first send Meta refuses (132015/132016), so this read only
 * spares the sends of a pause Meta announced before refusing; the job item is still read at the
 * cancellation's pace. Halves the worker's control reads (one store, many workers, locally).
 */
export const TEMPLATE_STATE_REFRESH_MS = 1_000;

/**
 * The longest a person's pause holds a job (30 days; `userPauseLimitMs` of the worker's settings
 * overrides it): then the job is cancelled (`cancelReason` PAUSE_EXPIRED). Well inside the job's
 * 90-day retention, so the cancelled job, its recipients list and follow-ups stay readable for 60
 * days more (docs/BROADCAST.md "Pausing a job").
 */
export const USER_PAUSE_LIMIT_MS = 30 * 24 * 3_600_000;
/** The `cancelReason` of a job whose person's pause outlasted the limit. */
export const PAUSE_EXPIRED_REASON = 'PAUSE_EXPIRED';

/** Whether a person's pause, or a canary's halt awaiting a person, has held its job longer than the limit (Meta's holds have none). */
export const isUserPauseExpired = (pause: JobPause, now: Date, limitMs = USER_PAUSE_LIMIT_MS): boolean =>
  (pause.pausedBy === 'user' || pause.pausedBy === 'canary') && pause.failsAt === undefined && now.getTime() - Date.parse(pause.pausedAt) >= limitMs;

/** Meta's event times are whole seconds: an event up to a second before a time may be after it. */
const EVENT_TIME_RESOLUTION_MS = 1000;

/** Whether the worker goes on: the job cancelled, held (with the pause reason; `untilResumed`: Meta refused the account, only a resume ends it), or go. */
export type JobGo = { kind: 'go' } | { kind: 'cancelled' } | { kind: 'paused'; reason: string; untilResumed?: true; pause?: JobPause };

export interface JobControlView {
  go: JobGo;
  control: JobControl;
  /** The template's recorded state, when one is newer than the job. */
  templateState?: { status: string; at: number };
}

type ControlDependencies = Pick<ProcessChunkDependencies, 'broadcasts' | 'templateStates'>;

/**
 * The one job-control read: the job's cancellation and pause and its template's recorded state
 * (two consistent single-item reads in parallel). A recorded state counts when it is newer than the
 * job (the accept checked the template was APPROVED then); anything but APPROVED holds the job.
 */
export async function readJobGo(
  dependencies: ControlDependencies,
  message: OutboundMessage,
  readTemplateState: () => Promise<TemplateState | undefined> = () => templateStateOf(dependencies, message),
): Promise<JobControlView> {
  const [stored, state] = await Promise.all([dependencies.broadcasts.readJobControl(message.jobId), readTemplateState()]);
  // A chunk whose job item is gone has nothing to be held by (the chunk item decides whether it runs).
  const control = stored ?? { cancelled: false, createdAt: new Date(0).toISOString() };
  const templateState =
    state && state.at.getTime() > Date.parse(control.createdAt) - EVENT_TIME_RESOLUTION_MS ? { status: state.status, at: state.at.getTime() } : undefined;
  const go: JobGo = control.cancelled
    ? { kind: 'cancelled' }
    : control.pause && isHeldUntilResumed(control.pause)
      ? { kind: 'paused', reason: control.pause.reason, untilResumed: true, pause: control.pause }
      : templateState && templateState.status !== 'APPROVED'
        ? { kind: 'paused', reason: `TEMPLATE_${templateState.status}` }
        : { kind: 'go' };
  return { go, control, ...(templateState ? { templateState } : {}) };
}

const templateStateOf = (dependencies: Pick<ControlDependencies, 'templateStates'>, message: OutboundMessage): Promise<TemplateState | undefined> =>
  message.kind === 'template-chunk'
    ? dependencies.templateStates.stateOf(message.wabaId, message.template.name, message.template.language)
    : Promise.resolve(undefined);

/** The template state read at most every `refreshMs`, the last value reused in between. */
function cachedTemplateState(
  read: () => Promise<TemplateState | undefined>,
  clock: Clock,
  refreshMs = TEMPLATE_STATE_REFRESH_MS,
): () => Promise<TemplateState | undefined> {
  let readAtMs = Number.NEGATIVE_INFINITY;
  let last: Promise<TemplateState | undefined> | undefined;
  return () => {
    const now = clock.now().getTime();
    if (last === undefined || now - readAtMs >= refreshMs) {
      readAtMs = now;
      last = read();
    }
    return last;
  };
}

/**
 * The job's go, re-read at most every `refreshMs`; concurrent askers share one read. Cancelled is
 * final; so is a hold (a pause read, or one of this worker's sends refused with 132015/132016):
 * this invocation sends nothing more, the held rest is looked at again in a later message.
 */
export class JobGoWatch {
  private current: JobGo;
  private readAtMs: number;
  private reading: Promise<JobGo> | undefined;

  constructor(
    private readonly read: () => Promise<JobGo>,
    private readonly clock: Clock,
    private readonly refreshMs: number,
    first: JobGo,
  ) {
    this.current = first;
    this.readAtMs = clock.now().getTime();
  }

  /** Watches the job of `message` (its template state read at most every TEMPLATE_STATE_REFRESH_MS); `onControl` sees each job-control read. */
  static of(
    dependencies: ControlDependencies & Pick<ProcessChunkDependencies, 'clock'>,
    message: OutboundMessage,
    refreshMs: number,
    first: JobGo,
    onControl: (control: JobControl) => void = () => undefined,
  ): JobGoWatch {
    const templateState = cachedTemplateState(() => templateStateOf(dependencies, message), dependencies.clock);
    const read = async (): Promise<JobGo> => {
      const view = await readJobGo(dependencies, message, templateState);
      onControl(view.control);
      return view.go;
    };
    return new JobGoWatch(read, dependencies.clock, refreshMs, first);
  }

  get latest(): JobGo {
    return this.current;
  }

  /** This worker's own evidence that the template is not sendable. */
  hold(reason: string): void {
    if (this.current.kind === 'go') this.current = { kind: 'paused', reason };
  }

  /** This worker's own evidence that Meta refused the account: held until resumed (replaces a template hold, as the stored pause does). */
  holdAccount(reason: string): void {
    const held = this.current.kind === 'cancelled' || (this.current.kind === 'paused' && this.current.untilResumed);
    if (!held) this.current = { kind: 'paused', reason, untilResumed: true };
  }

  async goes(): Promise<boolean> {
    if (this.current.kind !== 'go' || this.clock.now().getTime() - this.readAtMs < this.refreshMs) return this.current.kind === 'go';
    this.reading ??= this.read()
      .then((go) => {
        // A hold or a cancellation seen meanwhile is not undone by a read.
        if (this.current.kind === 'go') this.current = go;
        this.readAtMs = this.clock.now().getTime();
        return this.current;
      })
      .finally(() => (this.reading = undefined));
    return (await this.reading).kind === 'go';
  }
}

/**
 * A pause this worker may end. Paused before and sendable now: an APPROVED event after the pause
 * ends it at once (`endIfApproved`); without one (the pause came from refused sends only) the first
 * send Meta accepts ends it (`endOnAccepted`). Ended once.
 */
export class PauseEnding {
  private pause: JobPause | undefined;

  constructor(
    private readonly dependencies: Pick<ProcessChunkDependencies, 'broadcasts'>,
    private readonly jobId: string,
    view: JobControlView,
  ) {
    this.pause = view.control.pause;
  }

  async endIfApproved(view: JobControlView): Promise<void> {
    const approvedAfter =
      this.pause && view.templateState?.status === 'APPROVED' && view.templateState.at > Date.parse(this.pause.pausedAt) - EVENT_TIME_RESOLUTION_MS;
    if (approvedAfter) await this.end();
  }

  async endOnAccepted(): Promise<void> {
    if (this.pause) await this.end();
  }

  private async end(): Promise<void> {
    const pause = this.pause;
    this.pause = undefined;
    if (pause) await this.dependencies.broadcasts.resumeJob(this.jobId, pause.pausedAt);
  }
}

/**
 * The job's template is not sendable: the job is marked paused (the first pauser's time, reason and
 * deadline stay) and `rest` is re-queued, delayed until the next look (or the deadline, if sooner).
 * Past the deadline the rest is claimed as FAILED `TEMPLATE_PAUSED` instead and the chunk settles.
 */
export async function holdOrFail(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'queue' | 'events' | 'settings'>,
  message: OutboundMessage,
  rest: readonly ChunkRecipient[],
  reason: string,
  report: ChunkReport,
): Promise<ChunkReport> {
  const { broadcasts, clock, settings } = dependencies;
  const now = clock.now();
  const proposed: JobPause = { pausedAt: now.toISOString(), reason, failsAt: new Date(now.getTime() + settings.templatePauseTimeoutMs).toISOString() };
  const pause = (await broadcasts.pauseJob(message.jobId, proposed)) ?? proposed;
  // A hold until resumed set meanwhile (Meta refused the account) wins over the template's deadline.
  if (pause.failsAt === undefined) return holdUntilResumed(dependencies, message, rest, report, pause);
  const untilDeadlineMs = Date.parse(pause.failsAt) - now.getTime();
  if (untilDeadlineMs <= 0) return settleRest(dependencies, message, rest, report, { status: 'FAILED', failureReasonCode: TEMPLATE_PAUSED_FAILURE });
  const delaySeconds = Math.max(1, Math.min(settings.pauseRecheckSeconds, Math.ceil(untilDeadlineMs / 1000)));
  await dependencies.queue.enqueue([{ ...message, recipients: [...rest] }], { delaySeconds });
  report.held = rest.length;
  return report;
}

/**
 * Held until resumed (Meta refused the account: written as soon as a send was refused, with the
 * account's other running jobs, chunk-run.ts, account-hold.ts; or a person paused it, pause-job.ts):
 * `rest` is re-queued, delayed until the next look; a resume (resume-job.ts) lets the next look send
 * it. A person's pause older than USER_PAUSE_LIMIT_MS cancels the job instead (`cancelReason`
 * PAUSE_EXPIRED): its rest is settled CANCELLED, so the job finishes well inside its retention.
 */
async function holdUntilResumed(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'queue' | 'events' | 'settings'>,
  message: OutboundMessage,
  rest: readonly ChunkRecipient[],
  report: ChunkReport,
  pause?: JobPause,
): Promise<ChunkReport> {
  if (pause && isUserPauseExpired(pause, dependencies.clock.now(), dependencies.settings.userPauseLimitMs)) {
    await dependencies.broadcasts.cancelJob(message.jobId, dependencies.clock.now(), PAUSE_EXPIRED_REASON);
    return settleRest(dependencies, message, rest, report, 'CANCELLED');
  }
  await dependencies.queue.enqueue([{ ...message, recipients: [...rest] }], { delaySeconds: Math.max(1, dependencies.settings.pauseRecheckSeconds) });
  report.held = rest.length;
  return report;
}

/** A job that may not go on: its rest is settled CANCELLED, or held (failed past a template pause's deadline; until resumed after Meta refused the account). */
export function stopFor(
  go: Exclude<JobGo, { kind: 'go' }>,
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'queue' | 'events' | 'settings'>,
  message: OutboundMessage,
  rest: readonly ChunkRecipient[],
  report: ChunkReport,
): Promise<ChunkReport> {
  if (go.kind === 'cancelled') return settleRest(dependencies, message, rest, report, 'CANCELLED');
  return go.untilResumed ? holdUntilResumed(dependencies, message, rest, report, go.pause) : holdOrFail(dependencies, message, rest, go.reason, report);
}
