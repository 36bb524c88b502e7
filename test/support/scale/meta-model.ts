/**
 * A model of Meta's Cloud API send endpoint for the scale simulation (the CloudApiClient port):
 * a per-number throughput limit (a token bucket at the number's tier rate: a send over it is
 * refused 130429, retryable), an answer latency with Meta's tail (log-normal around 250 ms, and a
 * small share of slow answers of seconds), injected faults (answers lost: the outcome is unknown;
 * Meta took some of those messages), and the record that exactly-once is judged from: every send
 * Meta took, by its callback data (one ledger entry each).
 */
import type { CloudApiClient, SendOutcome, UpstreamCall } from '../../../shared/sending/ports';
import { logNormal, type Random } from './seeded-random';
import type { TakenMessage } from './webhook-model';
import type { VirtualScheduler } from './virtual-scheduler';

export interface MetaModelSettings {
  latencyMedianMs: number;
  latencySigma: number;
  /** Share of answers in the tail, and that tail's median (Meta's slow answers). */
  tailShare: number;
  tailMedianMs: number;
  /** The bucket's depth in seconds of the number's rate (Meta tolerates short bursts). */
  burstSeconds: number;
  /** Share of sends whose answer is lost on faulted numbers; a lost answer's message went out with probability 1/2. */
  faultShare: number;
  faultedNumbers: ReadonlySet<string>;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** What Meta did per number: sends taken and refused, the first and last taken. */
export interface NumberRecord {
  taken: number;
  refused: number;
  firstAt: number;
  lastAt: number;
  /** Taken within the measured window (MetaModel.window). */
  inWindow: number;
}

export class MetaModel implements Pick<CloudApiClient, 'sendMessage'> {
  /** Sends Meta took, by callback data (`b1:<job>:<chunk>:<index>`): more than 1 is a duplicate. */
  readonly taken = new Map<string, number>();
  /** Callback data of sends whose answer the model lost (the only ones allowed to end UNKNOWN). */
  readonly faulted = new Set<string>();
  readonly numbers = new Map<string, NumberRecord>();
  /** When each tracked send first reached Meta, by callback data (for single-message latency). */
  readonly arrivedAt = new Map<string, number>();
  /** Which sends' arrival is kept (the single messages: keeping every send's would be a map of millions). */
  tracked: (callbackData: string) => boolean = () => true;
  /** Told of every message Meta took (its statuses follow as webhooks). */
  onTaken: (message: TakenMessage) => void = () => undefined;
  /** The window per-account rates are measured over (epoch ms). */
  window = { fromMs: 0, toMs: Number.POSITIVE_INFINITY };
  private readonly buckets = new Map<string, Bucket>();
  private messageCounter = 0;

  constructor(
    private readonly time: VirtualScheduler,
    private readonly settings: MetaModelSettings,
    private readonly rateOf: (phoneNumberId: string) => number,
    private readonly random: Random,
  ) {}

  async sendMessage(phoneNumberId: string, body: Record<string, unknown>, _call: UpstreamCall): Promise<SendOutcome> {
    const key = String(body.biz_opaque_callback_data);
    const record = this.recordOf(phoneNumberId);
    if (this.tracked(key) && !this.arrivedAt.has(key)) this.arrivedAt.set(key, this.time.nowMs());
    const admitted = this.admit(phoneNumberId);
    await this.time.sleep(this.latency());
    if (!admitted) {
      record.refused += 1;
      return { kind: 'rejected', httpStatus: 400, retryable: true, error: { message: '(#130429) Rate limit hit', type: 'OAuthException', code: 130429 } };
    }
    const lost = this.settings.faultedNumbers.has(phoneNumberId) && this.random() < this.settings.faultShare;
    if (lost) this.faulted.add(key);
    const messageId = !lost || this.random() < 0.5 ? this.take(phoneNumberId, key, String(body.to), record) : undefined;
    if (lost || messageId === undefined) return { kind: 'unknown', reason: 'timeout (injected)' };
    return { kind: 'accepted', messageId };
  }

  /** Meta takes the message: its id, counted, its statuses to follow. */
  private take(phoneNumberId: string, key: string, recipientId: string, record: NumberRecord): string {
    const messageId = `wamid.${(this.messageCounter += 1)}`;
    this.taken.set(key, (this.taken.get(key) ?? 0) + 1);
    const now = this.time.nowMs();
    if (record.taken === 0) record.firstAt = now;
    record.taken += 1;
    record.lastAt = now;
    if (now >= this.window.fromMs && now < this.window.toMs) record.inWindow += 1;
    this.onTaken({ phoneNumberId, callbackData: key, messageId, recipientId });
    return messageId;
  }

  private recordOf(phoneNumberId: string): NumberRecord {
    let record = this.numbers.get(phoneNumberId);
    if (!record) {
      record = { taken: 0, refused: 0, firstAt: 0, lastAt: 0, inWindow: 0 };
      this.numbers.set(phoneNumberId, record);
    }
    return record;
  }

  /** The number's token bucket: refilled at its tier rate, `burstSeconds` deep. */
  private admit(phoneNumberId: string): boolean {
    const rate = this.rateOf(phoneNumberId);
    const now = this.time.nowMs();
    const depth = Math.max(1, rate * this.settings.burstSeconds);
    const bucket = this.buckets.get(phoneNumberId) ?? { tokens: depth, at: now };
    bucket.tokens = Math.min(depth, bucket.tokens + ((now - bucket.at) * rate) / 1000);
    bucket.at = now;
    this.buckets.set(phoneNumberId, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private latency(): number {
    const tail = this.random() < this.settings.tailShare;
    return tail ? logNormal(this.random, this.settings.tailMedianMs, 0.5) : logNormal(this.random, this.settings.latencyMedianMs, this.settings.latencySigma);
  }
}
