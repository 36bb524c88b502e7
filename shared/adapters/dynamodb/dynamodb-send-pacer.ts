/**
 * The shared send schedule of each business account: one item holding the next free slot
 * (epoch ms). A reservation moves it forward by count/rate seconds with a conditional update,
 * so concurrent workers in any number of Lambdas get disjoint slots and the account's rate is
 * never exceeded. One write per block of ~100 ms of sends, not per message. The same item holds
 * the account's turn (`turnOwner`, `turnStartedAt`, `turnUntil`: shared/sending/account-turn.ts),
 * taken with one conditional update per chunk start.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput, type UpdateCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { AccountTurn, AccountTurnRequest, TurnAnswer } from '../../sending/account-turn';
import type { SendPacer } from '../../sending/ports';
import { classifyStoreFaults } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';

const pacerKey = messagingKeys.pacer;

export class DynamoDbSendPacer implements SendPacer {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async reserve(accountKey: string, count: number, ratePerSecond: number, nowMs: number): Promise<number> {
    const durationMs = (count * 1000) / ratePerSecond;
    // Two cases, each one atomic conditional update: the schedule is idle (starts now) or busy (append).
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const idle = await this.updateIf(accountKey, {
        UpdateExpression: 'SET nextFreeAt = :end',
        ConditionExpression: 'attribute_not_exists(nextFreeAt) OR nextFreeAt <= :now',
        ExpressionAttributeValues: { ':now': nowMs, ':end': nowMs + durationMs },
      });
      if (idle) return nowMs;
      const appended = await this.updateIf(accountKey, {
        UpdateExpression: 'SET nextFreeAt = nextFreeAt + :duration',
        ConditionExpression: 'nextFreeAt > :now',
        ExpressionAttributeValues: { ':now': nowMs, ':duration': durationMs },
        ReturnValues: 'UPDATED_NEW',
      });
      if (appended) return Number(appended.Attributes?.nextFreeAt) - durationMs;
    }
    throw new Error(`Send pacer for ${accountKey} stayed contended`);
  }

  async holdUntil(accountKey: string, untilMs: number): Promise<void> {
    await this.updateIf(accountKey, {
      UpdateExpression: 'SET nextFreeAt = :until',
      ConditionExpression: 'attribute_not_exists(nextFreeAt) OR nextFreeAt < :until',
      ExpressionAttributeValues: { ':until': untilMs },
    });
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
    const turn: AccountTurn | undefined =
      typeof item?.turnOwner === 'string' ? { owner: item.turnOwner, startedAt: Number(item.turnStartedAt), until: Number(item.turnUntil) } : undefined;
    return { granted: false, ...(turn ? { turn } : {}), ...(item?.nextFreeAt !== undefined ? { bookedUntil: Number(item.nextFreeAt) } : {}) };
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
