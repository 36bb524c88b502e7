/**
 * Recipients waiting unclaimed (a send window's opening, a frequency cap's allowance) in their job's
 * tally item (docs/DATA-MODEL.md "Tally items"): attribute `w<00000>` beside the recipient's outcome
 * code `r<00000>`, holding `0A:<epoch s>` or `0B:<epoch s>`. Apart from `r` because the outcome
 * writes are `if_not_exists` (a max-register that an earlier code would block) while a hold is
 * overwritten by the next one: the outcome, when there is one, always wins when read (decodeTally).
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TallyCode } from '../../delivery/recipient-status';
import { tallySlotOf } from './messaging-table';

/** The table written (messaging-table-requests.ts' MessagingTable; named here, as that module imports this one through the tally items). */
type Table = { client: DynamoDBDocumentClient; tableName: string };

/** The waiting attribute of a recipient's outcome attribute (`r00042` -> `w00042`). */
export const waitingAttributeOf = (outcomeAttribute: string): string => `w${outcomeAttribute.slice(1)}`;

/** Matches a waiting attribute; the group is the recipient index. */
export const WAITING_ATTRIBUTE = /^w(\d{5})$/;

/**
 * The waiting codes a tally item holds, by recipient index (whether an outcome overrides them is the reader's to say).
 *
 * @example waitingCodesOf({ sk: 'TALLY#0', w00007: '0A:1764583200' }); // Map { 7 => '0A:1764583200' }
 */
export function waitingCodesOf(item: Record<string, unknown>): Map<number, TallyCode> {
  const codes = new Map<number, TallyCode>();
  for (const [name, value] of Object.entries(item)) {
    const waiting = WAITING_ATTRIBUTE.exec(name);
    if (waiting && typeof value === 'string') codes.set(Number(waiting[1]), value);
  }
  return codes;
}

/**
 * Writes waiting codes, one UpdateItem per tally item (`SET w = :code`: the latest hold wins).
 *
 * @example
 * await writeWaitingCodes(table, 'pub_1', [{ index: 7, code: '0A:1764583200' }], expiresAtFrom(now));
 */
export async function writeWaitingCodes(
  table: Table,
  jobId: string,
  entries: ReadonlyArray<{ index: number; code: TallyCode }>,
  expiresAt: number,
): Promise<void> {
  const byItem = new Map<string, { key: { pk: string; sk: string }; codes: Map<string, TallyCode> }>();
  for (const { index, code } of entries) {
    const slot = tallySlotOf(jobId, index);
    const item = byItem.get(slot.key.sk) ?? { key: slot.key, codes: new Map<string, TallyCode>() };
    item.codes.set(waitingAttributeOf(slot.attribute), code);
    byItem.set(slot.key.sk, item);
  }
  await Promise.all(
    [...byItem.values()].map(({ key, codes }) => {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':expiresAt': expiresAt };
      const assignments = ['expiresAt = if_not_exists(expiresAt, :expiresAt)'];
      [...codes].forEach(([attribute, code], position) => {
        names[`#w${position}`] = attribute;
        values[`:w${position}`] = code;
        assignments.push(`#w${position} = :w${position}`);
      });
      return table.client.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: key,
          UpdateExpression: `SET ${assignments.join(', ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    }),
  );
}
