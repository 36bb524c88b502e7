/**
 * The outbound lanes (docs/SCALE.md "The single-message lane"): which queue and worker a job's chunk
 * messages travel. A business's single message (a free-form message, a one-recipient broadcast, an
 * earlier send-single) goes through the `single` lane, its own queue and worker (single-sender), so it
 * never waits behind the broadcast and campaign chunks of the `bulk` lane (chunk-worker). Both lanes
 * run the same sending engine and the same exactly-once ledger; only the queue differs.
 *
 * The one rule is `laneOfJob`; the fan-out stamps the lane on each message (`inLane`), re-queues of a
 * message keep it (they copy the message), and the queue adapter sends each message to its lane's
 * queue (`laneOfMessage`). A message without a lane (queued before lanes existed) is `bulk`.
 */
import type { BroadcastJob } from './broadcast-job';
import type { OutboundMessage } from './chunk-message';

export type OutboundLane = 'bulk' | 'single';

/**
 * The lane of a job's messages: one recipient and not a campaign's → `single`; everything else
 * (broadcasts of two or more, every campaign, whose open-ended job counts its members as it grows) → `bulk`.
 *
 * @example
 * laneOfJob({ ...job, kind: 'freeform', totalRecipients: 1 }); // 'single'
 * laneOfJob({ ...job, kind: 'template', totalRecipients: 5_000 }); // 'bulk'
 * laneOfJob({ ...job, kind: 'template', totalRecipients: 1, campaignId: 'cmp_1' }); // 'bulk'
 */
export function laneOfJob(job: BroadcastJob): OutboundLane {
  const campaign = job.kind === 'template' && job.campaignId !== undefined;
  return job.totalRecipients === 1 && !campaign ? 'single' : 'bulk';
}

/**
 * The lane a message travels (its marker; none: `bulk`).
 *
 * @example
 * laneOfMessage(decodeOutboundMessage(body)); // 'bulk' for every message queued before lanes
 */
export const laneOfMessage = (message: Pick<OutboundMessage, 'lane'>): OutboundLane => message.lane ?? 'bulk';

/**
 * The message marked for `lane`: `single` carries the marker, `bulk` none (its bytes stay as before lanes).
 *
 * @example
 * inLane(message, 'single').lane; // 'single'
 */
export function inLane<Message extends OutboundMessage>(message: Message, lane: OutboundLane): Message {
  if (lane === 'single') return { ...message, lane };
  const { lane: _dropped, ...rest } = message;
  return rest as Message;
}

/**
 * Messages grouped by lane, each group in the order given (a lane's queue keeps the fan-out's order).
 *
 * @example
 * byLane([single, bulk1, bulk2]); // Map { 'single' => [single], 'bulk' => [bulk1, bulk2] }
 */
export function byLane<Message extends OutboundMessage>(messages: readonly Message[]): Map<OutboundLane, Message[]> {
  const groups = new Map<OutboundLane, Message[]>();
  for (const message of messages) {
    const lane = laneOfMessage(message);
    const group = groups.get(lane);
    if (group) group.push(message);
    else groups.set(lane, [message]);
  }
  return groups;
}
