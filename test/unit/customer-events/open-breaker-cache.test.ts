import { OpenBreakerCache } from '../../../shared/customer-events/open-breaker-cache';
import { InMemoryEndpointHealthStore } from '../../support/customer-event-fairness-fakes';

const endpoint = { organizationId: 'org_a', endpointId: 'whk_1' };
const at = (seconds: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, seconds));

function counted() {
  const store = new InMemoryEndpointHealthStore();
  let reads = 0;
  const read = store.read.bind(store);
  store.read = async (key, now) => {
    reads += 1;
    return read(key, now);
  };
  return { store, reads: () => reads };
}

describe('open breakers remembered in the process', () => {
  it('answers an open breaker from memory until its time, then reads the store again', async () => {
    const { store, reads } = counted();
    const cache = new OpenBreakerCache(store);
    await cache.recordFailures(endpoint, 5, true, at(0));
    await cache.openBreaker(endpoint, at(30), 1, at(0));
    expect(await cache.read(endpoint, at(1))).toMatchObject({ openUntilMs: at(30).getTime(), opens: 1 });
    expect(await cache.read(endpoint, at(29))).toMatchObject({ openUntilMs: at(30).getTime() });
    expect(reads()).toBe(1);
    expect(await cache.read(endpoint, at(30))).toMatchObject({ consecutiveFailures: 5, openUntilMs: at(30).getTime() });
    expect(reads()).toBe(2);
  });

  it('never remembers a closed endpoint, and forgets an open one on success', async () => {
    const { store, reads } = counted();
    const cache = new OpenBreakerCache(store);
    await cache.read(endpoint, at(0));
    await cache.read(endpoint, at(0));
    expect(reads()).toBe(2);
    await cache.openBreaker(endpoint, at(30), 1, at(0));
    await cache.read(endpoint, at(1));
    await cache.recordSuccess(endpoint, at(2));
    expect(await cache.read(endpoint, at(3))).toMatchObject({ consecutiveFailures: 0 });
    expect(reads()).toBe(4);
  });

  it('keeps at most its bound of endpoints, the oldest going first', async () => {
    const { store, reads } = counted();
    const cache = new OpenBreakerCache(store, 2);
    const keys = ['whk_1', 'whk_2', 'whk_3'].map((endpointId) => ({ organizationId: 'org_a', endpointId }));
    for (const key of keys) {
      await store.openBreaker(key, at(30), 1);
      await cache.read(key, at(0));
    }
    await cache.read(keys[2]!, at(1));
    await cache.read(keys[1]!, at(1));
    expect(reads()).toBe(3);
    await cache.read(keys[0]!, at(1));
    expect(reads()).toBe(4);
  });
});
