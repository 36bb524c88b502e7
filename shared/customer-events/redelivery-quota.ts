/**
 * The daily redelivery quota (docs/CUSTOMER-WEBHOOKS.md "Limits"): an organization may queue at most
 * `redeliveriesPerDay` events per UTC day through `POST /webhooks/{id}/redeliver`, all its endpoints
 * together. A request is granted whole or refused whole (nothing queued), counted before queueing.
 * Redelivery is the one way a caller queues deliveries at will (30 calls a minute of up to 1,000
 * events), so the quota bounds what one organization can put in the shared queue in a day.
 */
import { RedeliveryQuotaExceededError } from './errors';

/** The day's count per organization. Implemented by shared/adapters/dynamodb/dynamodb-redelivery-quota.ts. */
export interface RedeliveryQuota {
  /**
   * Adds `count` to the organization's redeliveries of `day` (YYYY-MM-DD, UTC) unless the total
   * would pass `limit`; answers whether it was added and the day's total (with it when granted).
   */
  reserve(organizationId: string, day: string, count: number, limit: number): Promise<{ granted: boolean; used: number }>;
}

export interface RedeliveryQuotaPorts {
  redeliveryQuota: RedeliveryQuota;
  /** CUSTOMER_EVENT_REDELIVERIES_PER_DAY (5,000). */
  redeliveriesPerDay: number;
}

const DAY_MS = 86_400_000;

/**
 * Counts `count` redeliveries against today's quota, or throws RedeliveryQuotaExceededError naming
 * the quota, the day's use and when it resets.
 *
 * @example
 * await reserveRedeliveries({ redeliveryQuota, redeliveriesPerDay: 5_000 }, 'org_1', 1_000, new Date());
 */
export async function reserveRedeliveries(ports: RedeliveryQuotaPorts, organizationId: string, count: number, now: Date): Promise<void> {
  if (count === 0) return;
  const day = now.toISOString().slice(0, 10);
  const decision = await ports.redeliveryQuota.reserve(organizationId, day, count, ports.redeliveriesPerDay);
  if (decision.granted) return;
  const resetsAt = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
  const retryAfterSeconds = Math.ceil((resetsAt.getTime() - now.getTime()) / 1000);
  throw new RedeliveryQuotaExceededError(ports.redeliveriesPerDay, decision.used, count, resetsAt, retryAfterSeconds);
}
