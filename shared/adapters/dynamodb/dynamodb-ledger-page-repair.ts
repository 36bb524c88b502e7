/**
 * The store's side of the ledger repair (shared/broadcast/ledger-repair.ts): a chunk's page entries
 * in the broken plain form (ledger-page-items.ts `decodeBrokenPageEntry`) rewritten under the safe
 * key of a refused recipient, each by one conditional write on the value read (an entry changed
 * since is left to the next run). Only the operators' CLI composes it (`npm run admin`).
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LedgerPageRepair, PageRepairResult } from '../../broadcast/ledger-repair';
import { refusedRecipientKey } from '../../broadcast/earlier-recipients';
import { decodeBrokenPageEntry, decodePageEntry, encodePageEntry, LEDGER_PAGE_SIZE } from './ledger-page-items';
import { messagingKeys } from './messaging-table';
import { isConditionFailure, queryAll, type MessagingTable } from './messaging-table-requests';

const PAGE_ATTRIBUTE = /^e(\d+)$/;
const PAGE_NUMBER = /^P#(\d+)$/;

/** Whether a stored value reads (the codec's own check). */
function readable(index: number, value: string): boolean {
  try {
    decodePageEntry(index, value);
    return true;
  } catch {
    return false;
  }
}

export class DynamoDbLedgerPageRepair implements LedgerPageRepair {
  private readonly table: MessagingTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.table = { client, tableName };
  }

  async repairChunkPages(jobId: string, chunkIndex: number): Promise<PageRepairResult> {
    const pages = await queryAll(this.table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': messagingKeys.ledgerPartition(jobId, chunkIndex), ':prefix': messagingKeys.ledgerPagePrefix },
      ConsistentRead: true,
    });
    const result: PageRepairResult = { rewritten: [], unrepairable: [] };
    for (const page of pages) {
      const pageNumber = PAGE_NUMBER.exec(String(page.sk));
      if (!pageNumber) continue;
      for (const [name, value] of Object.entries(page)) {
        const offset = PAGE_ATTRIBUTE.exec(name);
        if (!offset || typeof value !== 'string') continue;
        const index = Number(pageNumber[1]) * LEDGER_PAGE_SIZE + Number(offset[1]);
        if (readable(index, value)) continue;
        const repaired = decodeBrokenPageEntry(index, value, refusedRecipientKey(index));
        if (!repaired) result.unrepairable.push(index);
        else if (await this.rewrite({ pk: String(page.pk), sk: String(page.sk) }, name, value, encodePageEntry(repaired.entry, repaired.token)))
          result.rewritten.push(index);
      }
    }
    return { rewritten: result.rewritten.sort((a, b) => a - b), unrepairable: result.unrepairable.sort((a, b) => a - b) };
  }

  /** One entry replaced if it still holds what was read. False: it changed meanwhile. */
  private async rewrite(key: { pk: string; sk: string }, attribute: string, old: string, value: string): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key,
          UpdateExpression: 'SET #e = :value',
          ConditionExpression: '#e = :old',
          ExpressionAttributeNames: { '#e': attribute },
          ExpressionAttributeValues: { ':value': value, ':old': old },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
