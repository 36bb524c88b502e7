/**
 * Customer webhook endpoints' health (docs/CUSTOMER-WEBHOOKS.md "Fairness") in the rateLimits table:
 * one item per endpoint, `WEBHOOK_HEALTH#<orgId>#<endpointId>`, refreshed on every write and left
 * to TTL two days after the last one (it is throttling state, not data to keep; an endpoint deleted
 * meanwhile leaves nothing behind). Attributes: `failures` in a row, `timedOut` (the last failure
 * was a timeout), `openUntil` / `opens` (the circuit breaker), `lastSuccessAt`, and one attribute per concurrency
 * slot, `lease<n>` = `<expires at ms>#<acquired at ms>#<token>` (15-digit numbers, so the string
 * compares like its expiry: a slot is free when absent or expired), and per slot the last lease's
 * time in calls, `held<n>` = `<held ms>#<ended at ms>` (written by its release).
 *
 * Each organization's share of the dispatcher is one more item, `WEBHOOK_SHARE#<orgId>`, with the
 * same `lease<n>` attributes and TTL (OrganizationShareStore).
 *
 * Single-item conditional writes only, and every expiry is checked in code: dynalite has no TTL,
 * and AWS deletes expired items late.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EndpointHealth, EndpointHealthStore, EndpointKey, EndpointLease, LeaseHeld, OrganizationShareStore } from '../../customer-events/delivery-ports';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';

/** How long an endpoint's health outlives its last write (then TTL removes it, and it reads as fresh). */
export const ENDPOINT_HEALTH_TTL_SECONDS = 2 * 86_400;

const LEASE_ATTRIBUTE = /^lease(\d+)$/;
const HELD_ATTRIBUTE = /^held(\d+)$/;
const stamp = (ms: number): string => String(Math.max(0, Math.floor(ms))).padStart(15, '0');

type Item = Record<string, unknown>;

const freshHealth = (): EndpointHealth => ({ consecutiveFailures: 0, lastFailureTimedOut: false, opens: 0, leases: [] });

function leasesOf(item: Item, nowMs: number): LeaseHeld[] {
  const leases: LeaseHeld[] = [];
  for (const [name, value] of Object.entries(item)) {
    const match = LEASE_ATTRIBUTE.exec(name);
    if (!match || typeof value !== 'string') continue;
    const [expires, acquired] = value.split('#');
    const expiresAtMs = Number(expires);
    if (expiresAtMs > nowMs) leases.push({ slot: Number(match[1]), acquiredAtMs: Number(acquired), expiresAtMs });
  }
  return leases.sort((a, b) => a.slot - b.slot);
}

function holdsOf(item: Item): NonNullable<EndpointHealth['holds']> {
  const holds: Array<{ slot: number; heldMs: number; endedAtMs: number }> = [];
  for (const [name, value] of Object.entries(item)) {
    const match = HELD_ATTRIBUTE.exec(name);
    if (!match || typeof value !== 'string') continue;
    const [held, ended] = value.split('#').map(Number);
    if (Number.isFinite(held) && Number.isFinite(ended)) holds.push({ slot: Number(match[1]), heldMs: held!, endedAtMs: ended! });
  }
  return holds.sort((a, b) => a.slot - b.slot);
}

export class DynamoDbWebhookEndpointHealth implements EndpointHealthStore, OrganizationShareStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.client);
  }

  async read(endpoint: EndpointKey, now: Date): Promise<EndpointHealth> {
    const result = await this.client.send(new GetCommand({ TableName: this.tableName, Key: this.keyOf(endpoint), ConsistentRead: true }));
    const item = result.Item;
    if (!item || !this.live(item, now)) return freshHealth();
    return {
      consecutiveFailures: typeof item.failures === 'number' ? item.failures : 0,
      lastFailureTimedOut: item.timedOut === true,
      ...(typeof item.openUntil === 'number' ? { openUntilMs: item.openUntil } : {}),
      opens: typeof item.opens === 'number' ? item.opens : 0,
      ...(typeof item.lastSuccessAt === 'number' ? { lastSuccessAtMs: item.lastSuccessAt } : {}),
      leases: leasesOf(item, now.getTime()),
      ...(holdsOf(item).length > 0 ? { holds: holdsOf(item) } : {}),
    };
  }

  async tryLease(endpoint: EndpointKey, slot: number, now: Date, expiresAt: Date): Promise<EndpointLease | undefined> {
    return this.takeSlot(this.keyOf(endpoint), slot, now, expiresAt);
  }

  async release(endpoint: EndpointKey, lease: EndpointLease, held?: { ms: number; endedAt: Date }): Promise<void> {
    if (!held) return this.giveBack(this.keyOf(endpoint), lease, { update: 'REMOVE #lease', names: {}, values: {} });
    // The time held is written with the release, in the same conditional update.
    const value = `${Math.max(0, Math.round(held.ms))}#${held.endedAt.getTime()}`;
    await this.giveBack(this.keyOf(endpoint), lease, {
      update: 'REMOVE #lease SET #held = :held',
      names: { '#held': `held${lease.slot}` },
      values: { ':held': value },
    });
  }

  async readShare(organizationId: string, now: Date): Promise<{ leases: LeaseHeld[] }> {
    const result = await this.client.send(new GetCommand({ TableName: this.tableName, Key: this.shareKeyOf(organizationId), ConsistentRead: true }));
    const item = result.Item;
    return { leases: item && this.live(item, now) ? leasesOf(item, now.getTime()) : [] };
  }

  async tryShareLease(organizationId: string, slot: number, now: Date, expiresAt: Date): Promise<EndpointLease | undefined> {
    return this.takeSlot(this.shareKeyOf(organizationId), slot, now, expiresAt);
  }

  async releaseShare(organizationId: string, lease: EndpointLease): Promise<void> {
    await this.giveBack(this.shareKeyOf(organizationId), lease, { update: 'REMOVE #lease', names: {}, values: {} });
  }

  /** One slot of the item at `key`, unless a live lease holds it. */
  private async takeSlot(key: { pk: string }, slot: number, now: Date, expiresAt: Date): Promise<EndpointLease | undefined> {
    const token = randomBytes(9).toString('base64url');
    const value = `${stamp(expiresAt.getTime())}#${stamp(now.getTime())}#${token}`;
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET #lease = :lease, expiresAt = :expiresAt',
          // Our own value passes too: an SDK retry of a write the table applied is still ours.
          ConditionExpression: 'attribute_not_exists(#lease) OR #lease < :now OR #lease = :lease',
          ExpressionAttributeNames: { '#lease': `lease${slot}` },
          // `<now>$` sorts after every value expiring at `now` ('$' follows '#'): expired means expiry ≤ now, as read() has it.
          ExpressionAttributeValues: { ':lease': value, ':now': `${stamp(now.getTime())}$`, ':expiresAt': this.expiresAt(now) },
        }),
      );
      return { slot, token: value };
    } catch (error) {
      if (isConditionalCheckFailure(error)) return undefined;
      throw error;
    }
  }

  /** Removes the lease if it is still ours, with `also` in the same update. */
  private async giveBack(
    key: { pk: string },
    lease: EndpointLease,
    also: { update: string; names: Record<string, string>; values: Record<string, unknown> },
  ): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: also.update,
          ConditionExpression: '#lease = :lease',
          ExpressionAttributeNames: { '#lease': `lease${lease.slot}`, ...also.names },
          ExpressionAttributeValues: { ':lease': lease.token, ...also.values },
        }),
      );
    } catch (error) {
      // Expired and taken by another holder: that lease is not ours to remove.
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  async recordFailures(endpoint: EndpointKey, count: number, timedOut: boolean, now: Date): Promise<number> {
    const values = { ':count': count, ':timedOut': timedOut, ':expiresAt': this.expiresAt(now) };
    try {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.keyOf(endpoint),
          UpdateExpression: 'ADD failures :count SET timedOut = :timedOut, expiresAt = :expiresAt',
          // An item past its TTL that AWS has not removed yet counts from zero, as it reads.
          ConditionExpression: 'attribute_not_exists(expiresAt) OR expiresAt >= :nowSeconds',
          ExpressionAttributeValues: { ...values, ':nowSeconds': Math.floor(now.getTime() / 1000) },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(result.Attributes?.failures ?? count);
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.keyOf(endpoint),
        UpdateExpression: 'SET failures = :count, timedOut = :timedOut, expiresAt = :expiresAt, opens = :zero REMOVE openUntil',
        ExpressionAttributeValues: { ...values, ':zero': 0 },
      }),
    );
    return count;
  }

  async openBreaker(endpoint: EndpointKey, until: Date, opens: number, now: Date): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.keyOf(endpoint),
        UpdateExpression: 'SET openUntil = :until, opens = :opens, expiresAt = :expiresAt',
        ExpressionAttributeValues: { ':until': until.getTime(), ':opens': opens, ':expiresAt': this.expiresAt(now) },
      }),
    );
  }

  async recordSuccess(endpoint: EndpointKey, now: Date): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.keyOf(endpoint),
        UpdateExpression: 'SET failures = :zero, opens = :zero, timedOut = :false, lastSuccessAt = :now, expiresAt = :expiresAt REMOVE openUntil',
        ExpressionAttributeValues: { ':zero': 0, ':false': false, ':now': now.getTime(), ':expiresAt': this.expiresAt(now) },
      }),
    );
  }

  private keyOf(endpoint: EndpointKey): { pk: string } {
    return { pk: `WEBHOOK_HEALTH#${endpoint.organizationId}#${endpoint.endpointId}` };
  }

  private shareKeyOf(organizationId: string): { pk: string } {
    return { pk: `WEBHOOK_SHARE#${organizationId}` };
  }

  private expiresAt(now: Date): number {
    return Math.floor(now.getTime() / 1000) + ENDPOINT_HEALTH_TTL_SECONDS;
  }

  private live(item: Item, now: Date): boolean {
    return typeof item.expiresAt !== 'number' || item.expiresAt >= Math.floor(now.getTime() / 1000);
  }
}
