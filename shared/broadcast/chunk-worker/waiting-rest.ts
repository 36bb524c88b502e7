/**
 * Recipients the chunk worker does not claim yet because they must wait: outside their send window
 * (docs/CAMPAIGNS.md "Send windows") or deferred by the organization's frequency cap (`deferCapped`,
 * docs/CAMPAIGNS.md "Frequency caps"). They are never claimed, so nothing of theirs is in the ledger
 * and the chunk is not done; each gets a waiting tally code (`0A:<opening>` or `0B:<allowed at>`)
 * so the summary counts them, and they go back on the queue as a NEW message (not a redelivery,
 * which would count toward the dead-letter queue) delayed until the earliest of them may go, or
 * the re-check setting if sooner (an SQS delay is at most 900 s; a long wait is several short ones).
 * The message that comes back is processed like any other: whoever may go then is sent, the rest
 * waits again.
 */
import type { ChunkRecipient, OutboundMessage } from '../chunk-message';
import type { ChunkReport } from '../chunk-outcomes';
import { tallyCodes } from '../../delivery/recipient-status';
import type { ProcessChunkDependencies } from './chunk-worker-dependencies';

/** The re-check when the settings name none (SEND_WINDOW_RECHECK_SECONDS), and the longest SQS delay. */
export const DEFAULT_WAITING_RECHECK_SECONDS = 900;
const MAX_SQS_DELAY_SECONDS = 900;

/** One recipient that must wait, until when, and why (the tally code it gets). */
export interface WaitingRecipient {
  recipient: ChunkRecipient;
  until: Date;
  why: 'window' | 'cap';
}

export type WaitingDependencies = Pick<ProcessChunkDependencies, 'broadcasts' | 'queue' | 'clock'> & {
  settings: Pick<ProcessChunkDependencies['settings'], 'waitingRecheckSeconds'>;
};

/**
 * The delay of the message that brings waiting recipients back: until the earliest may go, at most
 * the re-check setting and the SQS limit, at least one second.
 *
 * @example
 * waitingDelaySeconds(new Date('2026-06-01T08:00:00Z'), [new Date('2026-06-01T08:05:00Z')], 900); // 300
 */
export function waitingDelaySeconds(now: Date, untils: readonly Date[], recheckSeconds = DEFAULT_WAITING_RECHECK_SECONDS): number {
  const earliest = Math.min(...untils.map((until) => until.getTime()));
  const untilEarliest = Math.ceil((earliest - now.getTime()) / 1000);
  return Math.max(1, Math.min(untilEarliest, recheckSeconds, MAX_SQS_DELAY_SECONDS));
}

/**
 * Holds `waiting` (none claimed): writes their waiting tally codes (one write per 50 recipients),
 * re-queues them as one new message of the same chunk and content, delayed (waitingDelaySeconds),
 * and counts them in `report.waiting`. A failed write or enqueue throws: the whole message comes
 * back (nothing was claimed for them, so nothing is lost or sent twice).
 *
 * @example
 * await holdWaiting(dependencies, message, [{ recipient, until: opensAt, why: 'window' }], report);
 * // report.waiting === 1; the recipient comes back in a message delayed until opensAt (at most the re-check)
 */
export async function holdWaiting(
  dependencies: WaitingDependencies,
  message: OutboundMessage,
  waiting: readonly WaitingRecipient[],
  report: ChunkReport,
): Promise<ChunkReport> {
  if (waiting.length === 0) return report;
  const codes = waiting.map(({ recipient, until, why }) => ({
    index: recipient.index,
    code: why === 'window' ? tallyCodes.waitingForWindow(until) : tallyCodes.waitingForCap(until),
  }));
  await dependencies.broadcasts.recordWaiting(message.jobId, codes);
  const recipients = waiting.map(({ recipient }) => recipient).sort((a, b) => a.index - b.index);
  const delaySeconds = waitingDelaySeconds(
    dependencies.clock.now(),
    waiting.map(({ until }) => until),
    dependencies.settings.waitingRecheckSeconds,
  );
  await dependencies.queue.enqueue([{ ...message, recipients }], { delaySeconds });
  report.waiting = (report.waiting ?? 0) + waiting.length;
  return report;
}
