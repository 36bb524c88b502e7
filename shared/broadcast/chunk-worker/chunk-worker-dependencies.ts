/** What the chunk worker is given: its ports, its settings and the invocation's clock. */
import type { JobCompletionPorts } from '../announce-job-completion';
import type { ChunkProgressStore, JobControlStore, JobStore, OutboundQueue, RecipientLedger, SenderDirectory, SuppressionList, TemplateStates } from '../ports';
import type { SendingPorts } from '../../sending/dispatch-send';
import type { SendLatencyEstimate } from '../../sending/in-flight-budget';
import type { CloudApiClient } from '../../sending/ports';
import type { SendPolicySettings } from '../../sending/send-policy';
import type { ClickLinkKeys } from '../../clicks/click-link-key';
import type { FrequencyCapPorts } from '../../send-rules/frequency-cap-ports';

export interface ChunkWorkerSettings extends SendPolicySettings {
  /**
   * The most concurrent upstream calls per worker (the cap of the in-flight budget: memory and
   * sockets). The lanes in use follow the account's rate and the observed send latency
   * (shared/sending/in-flight-budget.ts), between `minInFlight` and this.
   */
  maxInFlight: number;
  /** The fewest lanes (default DEFAULT_MIN_IN_FLIGHT); the cap wins when it is lower. */
  minInFlight?: number;
  /** A lane's busy time per send assumed before any send reports back (default DEFAULT_LATENCY_PRIOR_MS). */
  latencyPriorMs?: number;
  /** Stop taking recipients when less than this remains of the invocation; the rest continue in a new message. */
  safetyMarginMs: number;
  /**
   * The longest one upstream call may take (its timeout). A send or retry may start right before
   * the budget ends, so the margin is at least this plus FINAL_FLUSH_ALLOWANCE_MS: otherwise one
   * timed-out send at the end overruns the invocation, Lambda kills it, and the chunk waits for the
   * queue's visibility timeout (seen under the sandbox's Meta latency, docs/PERFORMANCE.md 4e).
   */
  upstreamTimeoutMs?: number;
  /** Outcomes are written in batches of this many (or sooner, see flushIntervalMs). */
  outcomeBatchSize: number;
  flushIntervalMs: number;
  /**
   * Consecutive recipients the ledger stores together (the DynamoDB ledger's page of 8): a flush due by
   * count or age holds back each group it holds in part for one flush, so the next writes it whole (one
   * item in a BatchWriteItem instead of an UpdateItem per part), and a full claim group keeps back the
   * claims of its last page held in part (one claim write per page). Absent: batches as they come.
   */
  ledgerPageSize?: number;
  /** Held recipients of a paused job come back after this many seconds (an SQS delay: at most 900). */
  pauseRecheckSeconds: number;
  /**
   * Recipients waiting for their send window or a frequency cap come back after at most this many
   * seconds (SEND_WINDOW_RECHECK_SECONDS; default DEFAULT_WAITING_RECHECK_SECONDS, waiting-rest.ts), or at the opening if sooner.
   */
  waitingRecheckSeconds?: number;
  /** A pause lasting longer fails the job's remaining recipients TEMPLATE_PAUSED. */
  templatePauseTimeoutMs: number;
  /** A person's pause lasting longer cancels the job (default USER_PAUSE_LIMIT_MS, job-control.ts). */
  userPauseLimitMs?: number;
}

export interface ProcessChunkDependencies extends SendingPorts {
  senders: SenderDirectory;
  /** The worker reads its job (completion), its control (cancel, pause), and writes the ledger and progress. */
  broadcasts: JobStore & JobControlStore & RecipientLedger & ChunkProgressStore;
  upstream: CloudApiClient;
  queue: OutboundQueue;
  /**
   * The organization's opt-out list, read again at send time (one batched read per chunk message):
   * a recipient who opted out after the accept is claimed FAILED OPTED_OUT, never sent.
   */
  optOuts: SuppressionList;
  /** The template states recorded from Meta's events: a paused template holds the job. */
  templateStates: Pick<TemplateStates, 'stateOf'>;
  settings: ChunkWorkerSettings;
  /** Customer events (job.completed when this worker settles a job's last chunk); absent: none. */
  events?: JobCompletionPorts['events'];
  /** The platform's link key of tracked-link tokens (docs/OUTCOMES.md "Tracked links"); absent: a chunk with a tracked button is not sendable here. */
  linkKeys?: Pick<ClickLinkKeys, 'signingKey'>;
  /** The organization's frequency cap: its cached policy, the contact book's pairs, the per-person records (frequency-caps.ts); absent: no cap. */
  frequencyCaps?: FrequencyCapPorts;
  /** The process's estimate of a lane's busy time per send (shared by its invocations); absent: one per invocation from the prior. */
  latency?: SendLatencyEstimate;
}

export interface ChunkInvocation {
  remainingTimeMs: () => number;
}
