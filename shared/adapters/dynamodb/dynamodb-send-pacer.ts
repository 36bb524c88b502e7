/**
 * The shared send schedule of each business account: one item holding the next free slot
 * (epoch ms). A reservation moves it forward by count/rate seconds with a conditional update,
 * so concurrent workers in any number of Lambdas get disjoint slots and the account's rate is
 * never exceeded. One write per block of ~100 ms of sends, not per message. The same item holds
 * the account's turn (`turnOwner`, `turnStartedAt`, `turnUntil`: shared/sending/account-turn.ts),
 * taken with one conditional update per chunk start.
 *
 * `nextFreeAt` only ever moves forward (every write of it is conditioned on a later value), so what
 * this instance last wrote or read of it is a floor of the stored value: a schedule known to be
 * booked past `now` is appended to at once (the idle write's condition would refuse it), and a hold
 * the floor already covers is not written (its condition would refuse it too), nor one a hold being
 * written covers (it waits for that one). Under a drain that spares an exception and a call per
 * block, and most of the burst of holds a run of 130429 answers asks for.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput, type UpdateCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { AccountTurn, AccountTurnRequest, TurnAnswer } from '../../sending/account-turn';
import type { SendPacer } from '../../sending/ports';
import { classifyStoreFaults } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';

const pacerKey = messagingKeys.pacer;

/** Accounts whose floor one instance keeps (a Lambda environment sends for a few): past it, it starts over. */
const MAX_KNOWN_ACCOUNTS = 1_000;

export class DynamoDbSendPacer implements SendPacer {
  /** Per account, a value `nextFreeAt` is known to have reached (written or read here): a floor of the stored one. */
  private readonly bookedAtLeast = new Map<string, number>();
  /** Per account, the hold being written now: a hold it covers waits for it instead (a run of 130429 answers asks for many at once). */
  private readonly holding = new Map<string, { untilMs: number; written: Promise<void> }>();

  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async reserve(accountKey: string, count: number, ratePerSecond: number, nowMs: number): Promise<number> {
    const durationMs = (count * 1000) / ratePerSecond;
    // Two cases, each one atomic conditional update: the schedule is idle (starts now) or busy (append).
    let busy = (this.bookedAtLeast.get(accountKey) ?? Number.NEGATIVE_INFINITY) > nowMs;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      if (!busy) {
        const idle = await this.updateIf(accountKey, {
          UpdateExpression: 'SET nextFreeAt = :end',
          ConditionExpression: 'attribute_not_exists(nextFreeAt) OR nextFreeAt <= :now',
          ExpressionAttributeValues: { ':now': nowMs, ':end': nowMs + durationMs },
        });
        if (idle) {
          this.learn(accountKey, nowMs + durationMs);
          return nowMs;
        }
      }
      const appended = await this.updateIf(accountKey, {
        UpdateExpression: 'SET nextFreeAt = nextFreeAt + :duration',
        ConditionExpression: 'nextFreeAt > :now',
        ExpressionAttributeValues: { ':now': nowMs, ':duration': durationMs },
        ReturnValues: 'UPDATED_NEW',
      });
      if (appended) {
        const end = Number(appended.Attributes?.nextFreeAt);
        this.learn(accountKey, end);
        return end - durationMs;
      }
      busy = false;
    }
    throw new Error(`Send pacer for ${accountKey} stayed contended`);
  }

  async holdUntil(accountKey: string, untilMs: number): Promise<void> {
    // Already booked to at least `untilMs`: the conditional write below would be refused.
    if (untilMs <= (this.bookedAtLeast.get(accountKey) ?? Number.NEGATIVE_INFINITY)) return;
    const inFlight = this.holding.get(accountKey);
    if (inFlight && inFlight.untilMs >= untilMs) return inFlight.written;
    const written = this.writeHold(accountKey, untilMs).finally(() => {
      if (this.holding.get(accountKey)?.written === written) this.holding.delete(accountKey);
    });
    this.holding.set(accountKey, { untilMs, written });
    return written;
  }

  private async writeHold(accountKey: string, untilMs: number): Promise<void> {
    await this.updateIf(accountKey, {
      UpdateExpression: 'SET nextFreeAt = :until',
      ConditionExpression: 'attribute_not_exists(nextFreeAt) OR nextFreeAt < :until',
      ExpressionAttributeValues: { ':until': untilMs },
    });
    // Written, or refused because the schedule was already booked further: either way at least `untilMs`.
    this.learn(accountKey, untilMs);
  }

  /**
   * `turnGranted` as one condition on the pacer item (the same three cases: the owner's own turn; no
   * live turn and a schedule free within a lane's time; a ramped turn and a schedule with gaps). A
   * refusal reads the item (consistent) for the caller's next look.
   */
  async takeTurn(accountKey: string, request: AccountTurnRequest): Promise<TurnAnswer> {
    const schedule = (edge: string) => `(attribute_not_exists(nextFreeAt) OR nextFreeAt <= ${edge})`;
    const taken = await this.updateIf(accountKey, {
      UpdateExpression: 'SET turnOwner = :owner, turnStartedAt = :now, turnUntil = :until',
      ConditionExpression: [
        'turnOwner = :owner',
        `((attribute_not_exists(turnUntil) OR turnUntil <= :overlapEdge) AND ${schedule(':laneEdge')})`,
        `(turnStartedAt <= :rampEdge AND ${schedule(':now')})`,
      ].join(' OR '),
      ExpressionAttributeValues: {
        ':owner': request.owner,
        ':now': request.nowMs,
        ':until': request.untilMs,
        ':overlapEdge': request.nowMs + request.overlapMs,
        ':laneEdge': request.nowMs + request.laneMs,
        ':rampEdge': request.nowMs - request.rampMs,
      },
    });
    if (taken) return { granted: true };
    const { Item: item } = await this.documentClient.send(new GetCommand({ TableName: this.tableName, Key: pacerKey(accountKey), ConsistentRead: true }));
    if (item?.nextFreeAt !== undefined) this.learn(accountKey, Number(item.nextFreeAt));
    const turn: AccountTurn | undefined =
      typeof item?.turnOwner === 'string' ? { owner: item.turnOwner, startedAt: Number(item.turnStartedAt), until: Number(item.turnUntil) } : undefined;
    return { granted: false, ...(turn ? { turn } : {}), ...(item?.nextFreeAt !== undefined ? { bookedUntil: Number(item.nextFreeAt) } : {}) };
  }

  private learn(accountKey: string, bookedUntil: number): void {
    if (!Number.isFinite(bookedUntil) || bookedUntil <= (this.bookedAtLeast.get(accountKey) ?? Number.NEGATIVE_INFINITY)) return;
    if (this.bookedAtLeast.size >= MAX_KNOWN_ACCOUNTS && !this.bookedAtLeast.has(accountKey)) this.bookedAtLeast.clear();
    this.bookedAtLeast.set(accountKey, bookedUntil);
  }

  /** One conditional UpdateItem of the account's pacer item: its output, or undefined when the condition refused it. */
  private async updateIf(accountKey: string, update: Omit<UpdateCommandInput, 'TableName' | 'Key'>): Promise<UpdateCommandOutput | undefined> {
    try {
      return await this.documentClient.send(new UpdateCommand({ TableName: this.tableName, Key: pacerKey(accountKey), ...update }));
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}
