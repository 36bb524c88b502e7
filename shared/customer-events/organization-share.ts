/**
 * One organization's share of the dispatcher (docs/CUSTOMER-WEBHOOKS.md "Fairness"): a group takes
 * one of its organization's `organizationConcurrency` slots besides its endpoint's, so however many
 * endpoints an organization has (up to 10), and however healthy they look, it holds at most that
 * many of the dispatcher's invocations at once; everyone else's events keep the rest.
 */
import type { EndpointLease, LeaseHeld, OrganizationShareStore } from './delivery-ports';
import type { EndpointFairnessSettings } from './retry-schedule';

/**
 * The free slots below `slots` no live lease holds, tried from a random one on (groups that read the
 * same leases at once mostly try different slots instead of all racing for the lowest); the first
 * lease taken, or undefined when every try was refused.
 *
 * @example
 * const lease = await takeFreeSlot(health.leases, 8, Math.random, (slot) => store.tryLease(endpoint, slot, now, expiresAt));
 */
export async function takeFreeSlot(
  leases: ReadonlyArray<LeaseHeld>,
  slots: number,
  random: () => number,
  tryLease: (slot: number) => Promise<EndpointLease | undefined>,
): Promise<EndpointLease | undefined> {
  const held = new Set(leases.map((lease) => lease.slot));
  const free = Array.from({ length: slots }, (_, slot) => slot).filter((slot) => !held.has(slot));
  const start = Math.floor(random() * free.length);
  for (const slot of [...free.slice(start), ...free.slice(0, start)]) {
    const lease = await tryLease(slot);
    if (lease) return lease;
  }
  return undefined;
}

/**
 * One of the organization's slots until `expiresAt` (the group's endpoint lease's expiry), or
 * undefined when all of them are held: a conditional write per free slot tried, from `leases` as
 * the caller read them (`readShare`, alongside the endpoint's registry entry).
 *
 * @example
 * const { leases } = await store.readShare('org_1', now);
 * const share = await takeShareLease(store, Math.random, 'org_1', leases, fairness, now, expiresAt);
 * if (!share) deferAll('organization-busy');
 */
export async function takeShareLease(
  store: Pick<OrganizationShareStore, 'tryShareLease'>,
  random: () => number,
  organizationId: string,
  leases: ReadonlyArray<LeaseHeld>,
  settings: Pick<EndpointFairnessSettings, 'organizationConcurrency'>,
  now: Date,
  expiresAt: Date,
): Promise<EndpointLease | undefined> {
  return takeFreeSlot(leases, settings.organizationConcurrency, random, (slot) => store.tryShareLease(organizationId, slot, now, expiresAt));
}
