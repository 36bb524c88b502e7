/**
 * WrapperIdRecords in the messaging table (docs/DATA-MODEL.md, "Messaging table"): one item per
 * media id an organization uploaded and per message id it sent through /upstream, keyed by the
 * organization, so another organization's id is simply absent. The messaging table is where the
 * platform's other per-message items live (the ledger), with DynamoDB TTL on `expiresAt`.
 *
 *   media    pk UPSTREAM#<orgId>#MEDIA#<mediaId>      sk UPSTREAM_ID
 *   message  pk UPSTREAM#<orgId>#MESSAGE#<messageId>  sk UPSTREAM_ID    (+ sendId of a send)
 *   send     pk UPSTREAM#<orgId>#SEND#<sendId>        sk UPSTREAM_SEND  one /upstream send: its outcome,
 *            and Meta's facts added by status events (DynamoDbUpstreamDeliveryStore)
 *
 * Reads are strongly consistent: a reply may follow its message within milliseconds.
 */
import { BatchGetCommand, BatchWriteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { UpstreamIdStoreUnavailableError } from '../../upstream/errors';
import type { UpstreamSendRecord, WrapperIdRecord, WrapperIdRecords } from '../../upstream/ports';
import { isStoreUnavailableError } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';

type Kind = 'MEDIA' | 'MESSAGE';

/** Meta keeps uploaded media 30 days; message ids are kept as long as the ledger's (90 days). */
export const RECORD_LIFETIME_DAYS: Record<Kind | 'SEND', number> = { MEDIA: 30, MESSAGE: 90, SEND: 90 };
const DAY_SECONDS = 86_400;

const wrapperIdKey = messagingKeys.wrapperId;

type Item = Record<string, unknown>;

const expiresAtOf = (kind: Kind | 'SEND', from: Date): number => Math.floor(from.getTime() / 1000) + RECORD_LIFETIME_DAYS[kind] * DAY_SECONDS;

/** The item of one id (`direction` on message ids; `sendId` on message ids of /upstream sends). */
export function wrapperIdItem(kind: Kind, record: WrapperIdRecord, extra: { direction?: 'sent' | 'received'; sendId?: string } = {}): Item {
  return {
    ...wrapperIdKey(record.organizationId, kind, record.id),
    entity: kind === 'MEDIA' ? 'UpstreamMedia' : 'UpstreamMessage',
    organizationId: record.organizationId,
    wabaId: record.wabaId,
    phoneNumberId: record.phoneNumberId,
    id: record.id,
    recordedAt: record.recordedAt.toISOString(),
    expiresAt: expiresAtOf(kind, record.recordedAt),
    ...extra,
  };
}

/** The send record: its outcome only; Meta's facts are added by events (never by this write, which comes first). */
export function upstreamSendItem(send: UpstreamSendRecord): Item {
  return {
    ...messagingKeys.upstreamSend(send.organizationId, send.sendId),
    entity: 'UpstreamSend',
    organizationId: send.organizationId,
    wabaId: send.wabaId,
    phoneNumberId: send.phoneNumberId,
    sendId: send.sendId,
    to: send.to,
    outcome: send.outcome,
    ...(send.messageId === undefined ? {} : { messageId: send.messageId }),
    ...(send.customerCallbackData === undefined ? {} : { customerCallbackData: send.customerCallbackData }),
    createdAt: send.createdAt.toISOString(),
    expiresAt: expiresAtOf('SEND', send.createdAt),
  };
}

export class DynamoDbWrapperIdRecords implements WrapperIdRecords {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async recordMedia(record: WrapperIdRecord): Promise<void> {
    await this.guard(() => this.documentClient.send(new PutCommand({ TableName: this.tableName, Item: wrapperIdItem('MEDIA', record) })));
  }

  async recordMessages(records: readonly WrapperIdRecord[], direction: 'sent' | 'received'): Promise<void> {
    await this.putAll(records.map((record) => wrapperIdItem('MESSAGE', record, { direction })));
  }

  async recordSends(sends: readonly UpstreamSendRecord[]): Promise<void> {
    await this.putAll(
      sends.flatMap((send) => [
        upstreamSendItem(send),
        ...(send.messageId === undefined
          ? []
          : [wrapperIdItem('MESSAGE', { ...send, id: send.messageId, recordedAt: send.createdAt }, { direction: 'sent', sendId: send.sendId })]),
      ]),
    );
  }

  private async putAll(items: readonly Item[]): Promise<void> {
    for (let start = 0; start < items.length; start += 25) {
      let batch = items.slice(start, start + 25).map((item) => ({ PutRequest: { Item: item } }));
      // BatchWrite may hand back unprocessed items under load; keep offering them, with a short pause.
      for (let attempt = 0; batch.length > 0; attempt += 1) {
        if (attempt > 8) throw new UpstreamIdStoreUnavailableError('Message id records stayed unprocessed');
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
        const result = await this.guard(() => this.documentClient.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: batch } })));
        batch = (result.UnprocessedItems?.[this.tableName] ?? []) as typeof batch;
      }
    }
  }

  ownedMedia(organizationId: string, mediaIds: readonly string[], now: Date): Promise<ReadonlySet<string>> {
    return this.owned(organizationId, 'MEDIA', mediaIds, now);
  }

  ownedMessages(organizationId: string, messageIds: readonly string[], now: Date): Promise<ReadonlySet<string>> {
    return this.owned(organizationId, 'MESSAGE', messageIds, now);
  }

  private async owned(organizationId: string, kind: Kind, ids: readonly string[], now: Date): Promise<ReadonlySet<string>> {
    const found = new Set<string>();
    const unique = [...new Set(ids)];
    const nowSeconds = Math.floor(now.getTime() / 1000);
    for (let start = 0; start < unique.length; start += 100) {
      let keys: Array<Record<string, unknown>> = unique.slice(start, start + 100).map((id) => wrapperIdKey(organizationId, kind, id));
      for (let attempt = 0; keys.length > 0; attempt += 1) {
        if (attempt > 8) throw new UpstreamIdStoreUnavailableError('Id records stayed unprocessed');
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
        const result = await this.guard(() =>
          this.documentClient.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } } })),
        );
        for (const item of result.Responses?.[this.tableName] ?? []) {
          // TTL deletes lazily (and not at all in dynalite): an expired record is no record.
          if (item.organizationId === organizationId && Number(item.expiresAt) > nowSeconds && typeof item.id === 'string') found.add(item.id);
        }
        keys = result.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
      }
    }
    return found;
  }

  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (isStoreUnavailableError(error))
        throw new UpstreamIdStoreUnavailableError(`Id store unavailable: ${(error as Error).name ?? 'error'}`, { cause: error });
      throw error;
    }
  }
}
