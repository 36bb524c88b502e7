/**
 * The organization's opt-out list read page by page as keys (shared/audiences/ports.ts
 * `OptOutKeyPages`): what an audience's `optedOutCount` intersects with its members. One Query per
 * page in key order; records of numbers taken off the list (`opted-in`) are skipped, entries stored
 * under an older form of a number (dynamodb-opt-out-list.ts) answer with its opt-out key.
 */
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OptOutKeyPages, PageRequest } from '../../audiences/ports';
import { optOutKeyOf } from '../../recipients/opt-out-key';
import { inboxKeys, InboxTable } from './inbox-table';

const keyPrefix = 'PHONE#';

export class DynamoDbOptOutKeys implements OptOutKeyPages {
  private readonly table: InboxTable;

  constructor(documentClient: DynamoDBDocumentClient, tableName: string) {
    this.table = new InboxTable(documentClient, tableName);
  }

  async optedOutKeys(organizationId: string, page: PageRequest): Promise<{ keys: string[]; nextCursor?: string }> {
    const result = await this.table.send(
      new QueryCommand({
        ...this.table.partitionQuery(inboxKeys.optOut(organizationId, '').pk, keyPrefix),
        ScanIndexForward: true,
        // Eventually consistent: a count, read again on the next request.
        ConsistentRead: false,
        Limit: page.limit,
        ProjectionExpression: 'sk, #state',
        ExpressionAttributeNames: { '#state': 'state' },
        ...(page.cursor === undefined ? {} : { ExclusiveStartKey: inboxKeys.optOut(organizationId, page.cursor) }),
      }),
    );
    const keys = (result.Items ?? []).filter((item) => item.state !== 'opted-in').map((item) => optOutKeyOf(String(item.sk).slice(keyPrefix.length)));
    const last = result.LastEvaluatedKey?.sk;
    return typeof last === 'string' ? { keys: [...new Set(keys)], nextCursor: last.slice(keyPrefix.length) } : { keys: [...new Set(keys)] };
  }
}
