/**
 * An endpoint health store that remembers, per process, the endpoints whose breaker is open
 * (docs/CUSTOMER-WEBHOOKS.md "Fairness"): while it is, a read answers from memory, so the
 * deliveries of a dead endpoint coming back from the queue cost no store call until the breaker's
 * time is over. Safe because an open breaker changes only at its time (nothing calls the endpoint
 * meanwhile; a later opening only extends it, and is read once the remembered time has passed).
 * Bounded: the oldest entry goes first.
 */
import type { EndpointHealth, EndpointHealthStore, EndpointKey, EndpointLease, LeaseHeld, OrganizationShareStore } from './delivery-ports';

/** Endpoints remembered at most (a few hundred bytes each). */
export const OPEN_BREAKER_CACHE_ENTRIES = 1_000;

export class OpenBreakerCache implements EndpointHealthStore, OrganizationShareStore {
  private readonly open = new Map<string, EndpointHealth & { openUntilMs: number }>();

  constructor(
    private readonly store: EndpointHealthStore & OrganizationShareStore,
    private readonly maxEntries = OPEN_BREAKER_CACHE_ENTRIES,
  ) {}

  async read(endpoint: EndpointKey, now: Date): Promise<EndpointHealth> {
    const key = keyOf(endpoint);
    const known = this.open.get(key);
    // Leases are not remembered: an open breaker admits no call, so none is looked at.
    if (known && known.openUntilMs > now.getTime()) return { ...known, leases: [] };
    this.open.delete(key);
    const health = await this.store.read(endpoint, now);
    if (health.openUntilMs !== undefined && health.openUntilMs > now.getTime()) this.remember(key, { ...health, openUntilMs: health.openUntilMs });
    return health;
  }

  tryLease(endpoint: EndpointKey, slot: number, now: Date, expiresAt: Date): Promise<EndpointLease | undefined> {
    return this.store.tryLease(endpoint, slot, now, expiresAt);
  }

  release(endpoint: EndpointKey, lease: EndpointLease, held?: { ms: number; endedAt: Date }): Promise<void> {
    return this.store.release(endpoint, lease, held);
  }

  // The organization's share is never remembered: its leases change with every group.
  readShare(organizationId: string, now: Date): Promise<{ leases: ReadonlyArray<LeaseHeld> }> {
    return this.store.readShare(organizationId, now);
  }

  tryShareLease(organizationId: string, slot: number, now: Date, expiresAt: Date): Promise<EndpointLease | undefined> {
    return this.store.tryShareLease(organizationId, slot, now, expiresAt);
  }

  releaseShare(organizationId: string, lease: EndpointLease): Promise<void> {
    return this.store.releaseShare(organizationId, lease);
  }

  recordFailures(endpoint: EndpointKey, count: number, timedOut: boolean, now: Date): Promise<number> {
    return this.store.recordFailures(endpoint, count, timedOut, now);
  }

  openBreaker(endpoint: EndpointKey, until: Date, opens: number, now: Date): Promise<void> {
    // Remembered at the next read, from what the store holds then.
    return this.store.openBreaker(endpoint, until, opens, now);
  }

  async recordSuccess(endpoint: EndpointKey, now: Date): Promise<void> {
    this.open.delete(keyOf(endpoint));
    await this.store.recordSuccess(endpoint, now);
  }

  private remember(key: string, health: EndpointHealth & { openUntilMs: number }): void {
    this.open.delete(key);
    this.open.set(key, health);
    if (this.open.size > this.maxEntries) this.open.delete(this.open.keys().next().value!);
  }
}

const keyOf = (endpoint: EndpointKey): string => `${endpoint.organizationId}\n${endpoint.endpointId}`;
