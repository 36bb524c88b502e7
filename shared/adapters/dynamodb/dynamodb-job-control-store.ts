/**
 * What a running job is told, on its job item (messaging-table.ts): `cancelledAt` and the pause
 * (`pausedAt`, `pauseReason`, `pauseFailsAt`, `pausedBy`, `pauseCode`, `pauseText`, `pausedByCredentialId`, `pauseHalt`) and the calling
 * codes Meta refused (`refusedCountries`, a string set). Chunk workers read it often, so the read
 * projects those attributes only.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { JobControl, JobControlStore, JobPause } from '../../broadcast/broadcast-stores';
import { haltFiguresSchema } from '../../send-rules/halt-figures';
import { classifyStoreFaults } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';
import { isConditionFailure, type MessagingTable } from './messaging-table-requests';

export class DynamoDbJobControlStore implements JobControlStore {
  private readonly table: MessagingTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    classifyStoreFaults(client);
    this.table = { client, tableName };
  }

  async cancelJob(jobId: string, now: Date, reason?: string): Promise<string | undefined> {
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.job(jobId),
          // The first cancellation's time (and reason) stays: repeating a cancel changes nothing.
          UpdateExpression: `SET cancelledAt = if_not_exists(cancelledAt, :now)${reason === undefined ? '' : ', cancelReason = if_not_exists(cancelReason, :reason)'}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now.toISOString(), ...(reason === undefined ? {} : { ':reason': reason }) },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return String(result.Attributes?.cancelledAt ?? now.toISOString());
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async readJobControl(jobId: string): Promise<JobControl | undefined> {
    const { Item: item } = await this.table.client.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: messagingKeys.job(jobId),
        ProjectionExpression: `createdAt, cancelledAt, refusedCountries, ${PAUSE_ATTRIBUTES.join(', ')}`,
        ConsistentRead: true,
      }),
    );
    if (!item) return undefined;
    const pause = pauseOf(item);
    const refused = item.refusedCountries instanceof Set ? [...(item.refusedCountries as Set<string>)].sort() : [];
    return {
      cancelled: typeof item.cancelledAt === 'string',
      createdAt: String(item.createdAt),
      ...(pause ? { pause } : {}),
      ...(refused.length > 0 ? { refusedCountries: refused } : {}),
    };
  }

  async refuseCountry(jobId: string, callingCode: string): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.job(jobId),
          UpdateExpression: 'ADD refusedCountries :codes',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':codes': new Set([callingCode]) },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async pauseJob(jobId: string, pause: JobPause): Promise<JobPause | undefined> {
    const held = pause.failsAt === undefined;
    const values: Record<string, unknown> = { ':at': pause.pausedAt, ':reason': pause.reason };
    const sets = ['pausedAt = :at', 'pauseReason = :reason'];
    for (const [attribute, value] of [
      ['pauseFailsAt', pause.failsAt],
      ['pausedBy', pause.pausedBy],
      ['pauseCode', pause.code],
      ['pauseText', pause.text],
      ['pausedByCredentialId', pause.by],
      ['pauseHalt', pause.halt],
    ] as const) {
      if (value === undefined) continue;
      sets.push(`${attribute} = :${attribute}`);
      values[`:${attribute}`] = value;
    }
    const removed = PAUSE_ATTRIBUTES.filter((attribute) => !sets.some((set) => set.startsWith(`${attribute} `)));
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.job(jobId),
          // The first pauser wins, except that a hold until resumed (no deadline) replaces a template pause (one with a deadline).
          UpdateExpression: `SET ${sets.join(', ')}${removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : ''}`,
          ConditionExpression: held
            ? 'attribute_exists(pk) AND (attribute_not_exists(pausedAt) OR attribute_exists(pauseFailsAt)) AND (attribute_not_exists(resumedAt) OR resumedAt < :at)'
            : 'attribute_exists(pk) AND attribute_not_exists(pausedAt)',
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return pauseOf(result.Attributes ?? {}) ?? pause;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // No such job, or a pause that stays: the stored one.
      return (await this.readJobControl(jobId))?.pause;
    }
  }

  async resumeJob(jobId: string, pausedAt: string, at?: Date): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.job(jobId),
          UpdateExpression: `${at === undefined ? '' : 'SET resumedAt = :resumedAt '}REMOVE ${PAUSE_ATTRIBUTES.join(', ')}`,
          ConditionExpression: 'pausedAt = :at',
          ExpressionAttributeValues: { ':at': pausedAt, ...(at === undefined ? {} : { ':resumedAt': at.toISOString() }) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

/** Every attribute of a pause on the job item (written together, removed together). */
const PAUSE_ATTRIBUTES = ['pausedAt', 'pauseReason', 'pauseFailsAt', 'pausedBy', 'pauseCode', 'pauseText', 'pausedByCredentialId', 'pauseHalt'] as const;

/** The pause stored on a job item, when its time and reason are (a pause without a deadline is held until resumed). */
function pauseOf(item: Record<string, unknown>): JobPause | undefined {
  const { pausedAt, pauseReason, pauseFailsAt, pausedBy, pauseCode, pauseText, pausedByCredentialId, pauseHalt } = item;
  const halt = pauseHalt === undefined ? undefined : v.safeParse(haltFiguresSchema, pauseHalt);
  if (typeof pausedAt !== 'string' || typeof pauseReason !== 'string') return undefined;
  return {
    pausedAt,
    reason: pauseReason,
    ...(typeof pauseFailsAt === 'string' ? { failsAt: pauseFailsAt } : {}),
    ...(pausedBy === 'meta' || pausedBy === 'user' || pausedBy === 'canary' ? { pausedBy } : {}),
    ...(typeof pauseCode === 'number' ? { code: pauseCode } : {}),
    ...(typeof pauseText === 'string' ? { text: pauseText } : {}),
    ...(typeof pausedByCredentialId === 'string' ? { by: pausedByCredentialId } : {}),
    ...(halt?.success ? { halt: halt.output } : {}),
  };
}
