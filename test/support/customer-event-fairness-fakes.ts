/** In-memory stand-ins of the fairness ports (endpoint health, organization share, redelivery quota), for unit tests; they pass the contracts the DynamoDB adapters pass. */
import type {
  EndpointHealth,
  EndpointHealthStore,
  EndpointKey,
  EndpointLease,
  LeaseHeld,
  OrganizationShareStore,
} from '../../shared/customer-events/delivery-ports';
import type { RedeliveryQuota } from '../../shared/customer-events/redelivery-quota';
import type { EndpointFairnessSettings } from '../../shared/customer-events/retry-schedule';

/** The fairness settings the unit tests assume: app-config's defaults. */
export const testFairness: EndpointFairnessSettings = {
  concurrency: 2,
  burstConcurrency: 6,
  slotBudgetMs: 8_000,
  organizationConcurrency: 10,
  failingTimeoutMs: 2_500,
  breakerThreshold: 5,
  breakerBaseMs: 30_000,
  breakerCapMs: 900_000,
};

interface Record {
  failures: number;
  timedOut: boolean;
  openUntilMs?: number;
  opens: number;
  lastSuccessAtMs?: number;
  leases: Map<number, { token: string; acquiredAtMs: number; expiresAtMs: number }>;
  holds: Map<number, { heldMs: number; endedAtMs: number }>;
}

type Leases = Map<number, { token: string; acquiredAtMs: number; expiresAtMs: number }>;

const liveLeases = (leases: Leases, now: Date): LeaseHeld[] =>
  [...leases]
    .filter(([, lease]) => lease.expiresAtMs > now.getTime())
    .map(([slot, lease]) => ({ slot, acquiredAtMs: lease.acquiredAtMs, expiresAtMs: lease.expiresAtMs }))
    .sort((a, b) => a.slot - b.slot);

export class InMemoryEndpointHealthStore implements EndpointHealthStore, OrganizationShareStore {
  private readonly records = new Map<string, Record>();
  private readonly shares = new Map<string, Leases>();
  /** Every write, for tests that count them. */
  readonly writes: string[] = [];
  private sequence = 0;

  async read(endpoint: EndpointKey, now: Date): Promise<EndpointHealth> {
    const record = this.records.get(this.key(endpoint));
    if (!record) return { consecutiveFailures: 0, lastFailureTimedOut: false, opens: 0, leases: [] };
    const leases = liveLeases(record.leases, now);
    const holds = [...record.holds].map(([slot, hold]) => ({ slot, ...hold })).sort((a, b) => a.slot - b.slot);
    return {
      consecutiveFailures: record.failures,
      lastFailureTimedOut: record.timedOut,
      ...(record.openUntilMs !== undefined ? { openUntilMs: record.openUntilMs } : {}),
      opens: record.opens,
      ...(record.lastSuccessAtMs !== undefined ? { lastSuccessAtMs: record.lastSuccessAtMs } : {}),
      leases,
      ...(holds.length > 0 ? { holds } : {}),
    };
  }

  async tryLease(endpoint: EndpointKey, slot: number, now: Date, expiresAt: Date): Promise<EndpointLease | undefined> {
    this.writes.push(`lease ${slot}`);
    return this.take(this.record(endpoint).leases, slot, now, expiresAt);
  }

  async release(endpoint: EndpointKey, lease: EndpointLease, held?: { ms: number; endedAt: Date }): Promise<void> {
    this.writes.push(`release ${lease.slot}`);
    const record = this.record(endpoint);
    if (record.leases.get(lease.slot)?.token !== lease.token) return;
    record.leases.delete(lease.slot);
    if (held) record.holds.set(lease.slot, { heldMs: Math.max(0, Math.round(held.ms)), endedAtMs: held.endedAt.getTime() });
  }

  async readShare(organizationId: string, now: Date): Promise<{ leases: LeaseHeld[] }> {
    return { leases: liveLeases(this.shares.get(organizationId) ?? new Map(), now) };
  }

  async tryShareLease(organizationId: string, slot: number, now: Date, expiresAt: Date): Promise<EndpointLease | undefined> {
    this.writes.push(`share ${slot}`);
    if (!this.shares.has(organizationId)) this.shares.set(organizationId, new Map());
    return this.take(this.shares.get(organizationId)!, slot, now, expiresAt);
  }

  async releaseShare(organizationId: string, lease: EndpointLease): Promise<void> {
    this.writes.push(`release share ${lease.slot}`);
    const leases = this.shares.get(organizationId);
    if (leases?.get(lease.slot)?.token === lease.token) leases.delete(lease.slot);
  }

  private take(leases: Leases, slot: number, now: Date, expiresAt: Date): EndpointLease | undefined {
    const held = leases.get(slot);
    if (held && held.expiresAtMs > now.getTime()) return undefined;
    const token = `lease-${(this.sequence += 1)}`;
    leases.set(slot, { token, acquiredAtMs: now.getTime(), expiresAtMs: expiresAt.getTime() });
    return { slot, token };
  }

  async recordFailures(endpoint: EndpointKey, count: number, timedOut: boolean): Promise<number> {
    this.writes.push(`failures +${count}`);
    const record = this.record(endpoint);
    record.failures += count;
    record.timedOut = timedOut;
    return record.failures;
  }

  async openBreaker(endpoint: EndpointKey, until: Date, opens: number): Promise<void> {
    this.writes.push(`open ${opens}`);
    Object.assign(this.record(endpoint), { openUntilMs: until.getTime(), opens });
  }

  async recordSuccess(endpoint: EndpointKey, now: Date): Promise<void> {
    this.writes.push('success');
    Object.assign(this.record(endpoint), { failures: 0, timedOut: false, openUntilMs: undefined, opens: 0, lastSuccessAtMs: now.getTime() });
  }

  private record(endpoint: EndpointKey): Record {
    const key = this.key(endpoint);
    let record = this.records.get(key);
    if (!record) {
      record = { failures: 0, timedOut: false, opens: 0, leases: new Map(), holds: new Map() };
      this.records.set(key, record);
    }
    return record;
  }

  private key(endpoint: EndpointKey): string {
    return `${endpoint.organizationId}\n${endpoint.endpointId}`;
  }
}

export class InMemoryRedeliveryQuota implements RedeliveryQuota {
  private readonly used = new Map<string, number>();

  async reserve(organizationId: string, day: string, count: number, limit: number): Promise<{ granted: boolean; used: number }> {
    const key = `${organizationId}\n${day}`;
    const used = this.used.get(key) ?? 0;
    if (used + count > limit) return { granted: false, used };
    this.used.set(key, used + count);
    return { granted: true, used: used + count };
  }
}
