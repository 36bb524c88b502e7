/**
 * The chunk worker and the job's send window (docs/CAMPAIGNS.md "Send windows"): before anything is
 * claimed, the chunk's recipients are split into those whose window is open now and those outside
 * it; the latter are held (waiting-rest.ts: not claimed, tally code `0A:<opening>`, re-queued for
 * their opening). While the lanes run, a recipient whose window closes before their send would
 * start is not claimed either: their slot is given back and they wait for the next opening with the
 * others. A chunk message without a window passes through untouched.
 */
import type { ChunkRecipient, OutboundMessage } from '../chunk-message';
import { emptyReport, type ChunkReport } from '../chunk-outcomes';
import { recipientTimeZone } from '../../send-rules/recipient-time-zone';
import type { SendWindow } from '../../send-rules/send-rules.schema';
import { windowState, windowZone } from '../../send-rules/send-window-clock';
import { holdWaiting, type WaitingDependencies, type WaitingRecipient } from './waiting-rest';

/**
 * The window's state for each recipient at `at`: who may go now (with when their window closes)
 * and who waits (until their window opens).
 *
 * @example
 * splitBySendWindow({ from: '09:00', to: '20:00' }, recipients, new Date('2026-06-01T06:00:00Z'));
 * // { ready: [{ recipient: indian, closesAt }], waiting: [{ recipient: american, until, why: 'window' }] }
 */
export function splitBySendWindow(
  window: SendWindow,
  recipients: readonly ChunkRecipient[],
  at: Date,
): { ready: Array<{ recipient: ChunkRecipient; closesAt: Date }>; waiting: WaitingRecipient[] } {
  const ready: Array<{ recipient: ChunkRecipient; closesAt: Date }> = [];
  const waiting: WaitingRecipient[] = [];
  // A campaign reaches a few zones: each zone's state is computed once per split.
  const byZone = new Map<string, ReturnType<typeof windowState>>();
  for (const recipient of recipients) {
    const zone = windowZone(window, () => recipientTimeZone(recipient));
    let state = byZone.get(zone);
    if (!state) byZone.set(zone, (state = windowState(window, zone, at)));
    if (state.open) ready.push({ recipient, closesAt: state.closesAt });
    else waiting.push({ recipient, until: state.opensAt, why: 'window' });
  }
  return { ready, waiting };
}

/**
 * One invocation's window keeping: the recipients it may send (`message`), when each one's window
 * closes, and those whose window closed while the chunk ran.
 */
export class SendWindowHold {
  private readonly closesAt = new Map<number, number>();
  private readonly closed: ChunkRecipient[] = [];
  private heldAtStart = 0;

  private constructor(
    private readonly window: SendWindow | undefined,
    /** The message with only the recipients whose window is open (the message itself without a window). */
    readonly message: OutboundMessage,
  ) {}

  /**
   * Holds the recipients of `received` outside their window now and keeps the rest. Without a window, nothing is done.
   *
   * @example
   * const windows = await SendWindowHold.start(dependencies, received);
   * if (windows.message.recipients.length === 0) return windows.counted(emptyReport());
   */
  static async start(dependencies: WaitingDependencies, received: OutboundMessage): Promise<SendWindowHold> {
    const window = received.sendRules?.sendWindow;
    if (!window) return new SendWindowHold(undefined, received);
    const { ready, waiting } = splitBySendWindow(window, received.recipients, dependencies.clock.now());
    const hold = new SendWindowHold(window, waiting.length === 0 ? received : { ...received, recipients: ready.map(({ recipient }) => recipient) });
    for (const { recipient, closesAt } of ready) hold.closesAt.set(recipient.index, closesAt.getTime());
    await holdWaiting(dependencies, received, waiting, emptyReport());
    hold.heldAtStart = waiting.length;
    return hold;
  }

  /** Whether the recipient's window is closed by `slot` (epoch ms, when their send would start): then it is kept for the next opening. */
  closedBy(recipient: ChunkRecipient, slot: number): boolean {
    const closesAt = this.closesAt.get(recipient.index);
    if (closesAt === undefined || slot < closesAt) return false;
    this.closed.push(recipient);
    return true;
  }

  /** The report with the recipients held at the start counted as waiting. */
  counted(report: ChunkReport): ChunkReport {
    if (this.heldAtStart > 0) report.waiting = (report.waiting ?? 0) + this.heldAtStart;
    return report;
  }

  /** After the lanes: the recipients whose window closed meanwhile wait for their next opening (counted in the report). */
  async holdClosed(dependencies: WaitingDependencies, report: ChunkReport): Promise<ChunkReport> {
    this.counted(report);
    const window = this.window;
    if (!window || this.closed.length === 0) return report;
    const now = dependencies.clock.now().getTime();
    // Read at the close (the send's slot may still lie ahead of now): the next opening after it.
    const waiting = this.closed.map((recipient): WaitingRecipient => {
      const state = windowState(
        window,
        windowZone(window, () => recipientTimeZone(recipient)),
        new Date(Math.max(now, this.closesAt.get(recipient.index)!)),
      );
      return { recipient, until: state.open ? new Date(now) : state.opensAt, why: 'window' };
    });
    return holdWaiting(dependencies, this.message, waiting, report);
  }
}
