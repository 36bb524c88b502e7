/**
 * The chunk worker's use case: send a chunk message's content (a template with per-recipient
 * parameters, or one prepared free-form message) to each of its recipients, exactly once, at the
 * pace the business account allows. Four steps per recipient and chunk:
 *
 * 1. claim: a conditional ledger write before the upstream call, so a redelivered, replayed or
 *    duplicated message skips everyone already claimed (the claim carries a token, so an SDK retry
 *    of our own write is not mistaken for someone else's claim). A claim left in SENDING by a
 *    crashed attempt means the outcome is unknown: it is marked UNKNOWN, never sent again.
 * 2. dispatch: the sending engine (shared/sending) sends on the account's shared schedule, with
 *    the worker's attempt budget (rate-limit answers get three times the attempts) and its time
 *    budget (the invocation's remaining time less a safety margin). What an answer means is the
 *    one classifier's (shared/sending/graph-answer.ts).
 * 3. record outcome: SENT with the message id, FAILED with the reason, UNKNOWN (never resent),
 *    written in ordered batches (chunk-outcomes.ts).
 * 4. settle chunk: recipients the time budget left over continue in a new message (the ledger
 *    keeps that safe to repeat); otherwise the chunk is reconciled from its ledger. On the last
 *    delivery of a message that keeps failing, abandonOutboundChunk accounts the rest as WORKER_ERROR;
 *    a message that reaches the dead-letter queue anyway is settled the same way by chunk-dead-letters.
 *
 * Cancellation (cancel-job.ts): before each send the lanes ask whether the job was cancelled (one
 * read shared by the lanes, refreshed at most every CANCELLATION_REFRESH_MS). Once it was, no lane
 * takes another recipient (sends already under way finish), and every recipient not yet claimed is
 * claimed as CANCELLED, so the chunk settles; a chunk picked up after the cancel sends nothing.
 *
 * Template pauses (docs/BROADCAST.md "When Meta pauses a template"): the same read also tells
 * whether the job's template is still sendable (its state recorded from Meta's events) and a send
 * Meta refuses with 132015/132016 (template paused/disabled) says so at once. Then no lane takes
 * another recipient, the refused recipient's claim is released (never failed nor charged), the job
 * is marked PAUSED (the first pauser wins) and the rest is held: re-queued as a new message delayed
 * by PAUSE_RECHECK_SECONDS (not a redelivery, which would count toward the dead-letter queue). A
 * worker that finds the template approved again clears the pause and sends the rest; one that finds
 * the pause past its deadline claims the rest as FAILED `TEMPLATE_PAUSED`, so the job finishes.
 *
 * Account refusals (131064, 131042, 131031, 131048; docs/BROADCAST.md "When Meta refuses the
 * account") hold the job like a template pause, with no deadline: only a resume ends them
 * (account-hold.ts). A country refusal (130497) fails only that country's recipients (refused-countries.ts).
 *
 * The folder, one file per job: job-control.ts (cancel and pause reads, hold or fail), pacing.ts
 * (lanes wanted, time budget, busy-account deferral), lanes.ts (the lane scheduler),
 * recipient-send.ts (steps 1-3 for one recipient), message-building.ts (the Meta body),
 * settle-chunk.ts (step 4, and the one routine settling recipients never to be sent), chunk-run.ts
 * (one invocation's state), this file (the order of it all).
 */
import type { OutboundMessage } from '../chunk-message';
import { emptyReport, type ChunkReport } from '../chunk-outcomes';
import type { ChunkInvocation, ProcessChunkDependencies } from './chunk-worker-dependencies';
import { ChunkRun } from './chunk-run';
import { cancellationRefreshMs, JobGoWatch, PauseEnding, readJobGo, stopFor } from './job-control';
import { runLanes } from './lanes';
import { RefusedCountries } from './refused-countries';
import { deferToBusyAccount, LanePacing, takeAccountTurn } from './pacing';
import { settleChunk } from './settle-chunk';
import { needsLinkKey } from './message-building';
import { SendWindowHold } from './send-window-hold';
import { FrequencyCapCheck } from './frequency-caps';

function linkKeyOf(dependencies: ProcessChunkDependencies): Promise<Buffer> {
  if (!dependencies.linkKeys) throw new TypeError('The chunk worker was composed without the click link key, and this chunk has tracked links');
  return dependencies.linkKeys.signingKey();
}

/**
 * Sends one chunk message (steps 1-4 above) and reports what became of its recipients.
 *
 * @example
 * const report = await processOutboundChunk(dependencies, decodeOutboundMessage(record.body), { remainingTimeMs: () => context.getRemainingTimeInMillis() });
 * // { sent: 998, failed: 2, unknown: 0, skipped: 0, continued: 0, chunkDone: true }
 */
export async function processOutboundChunk(
  dependencies: ProcessChunkDependencies,
  message: OutboundMessage,
  invocation: ChunkInvocation,
): Promise<ChunkReport> {
  if (!(await dependencies.broadcasts.markChunkStarted(message.jobId, message.chunkIndex, dependencies.clock.now()))) {
    // The job was discarded when queueing its other chunks failed: nothing of it may be sent.
    return { ...emptyReport(), skipped: message.recipients.length, chunkDone: true };
  }
  const first = await readJobGo(dependencies, message);
  if (first.go.kind !== 'go') return stopFor(first.go, dependencies, message, message.recipients, emptyReport());
  const pause = new PauseEnding(dependencies, message.jobId, first);
  await pause.endIfApproved(first);
  // The send window (docs/CAMPAIGNS.md "Send windows"): recipients outside theirs wait, unclaimed (send-window-hold.ts).
  const windows = await SendWindowHold.start(dependencies, message);
  if (windows.message.recipients.length === 0) return windows.counted(emptyReport());

  const account = await dependencies.senders.accountOf(message.organizationId, message.wabaId);
  const pacing = new LanePacing(dependencies, dependencies.settings, account.messagesPerSecond);
  const waitSeconds = await takeAccountTurn(dependencies, windows.message, pacing, invocation);
  if (waitSeconds !== undefined) return deferToBusyAccount(dependencies, windows.message, waitSeconds);
  const countries = new RefusedCountries(dependencies.broadcasts, message.jobId, first.control);
  const watch = JobGoWatch.of(dependencies, message, cancellationRefreshMs(account.messagesPerSecond, pacing.lanesWanted()), first.go, (control) =>
    countries.learn(control),
  );
  // Tracked links: the key is read once per container (made on the first tracked send ever).
  const linkKey = needsLinkKey(message) ? await linkKeyOf(dependencies) : undefined;
  // The frequency cap (docs/CAMPAIGNS.md "Frequency caps"): reserved per recipient after its claim (frequency-caps.ts).
  const caps = await FrequencyCapCheck.start(dependencies, windows.message);
  const run = new ChunkRun(dependencies, windows.message, invocation, { account, pacing, watch, pause, countries, linkKey, windows, caps });

  await runLanes(run);
  const report = await FrequencyCapCheck.holdDeferred(caps, dependencies, windows.message, await windows.holdClosed(dependencies, await run.finish()));
  const rest = run.rest();
  if (rest.length > 0 && run.stop) return stopFor(run.stop, dependencies, message, rest, report);
  return settleChunk(dependencies, message, run.pending, report);
}
