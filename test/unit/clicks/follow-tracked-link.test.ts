import { randomBytes } from 'node:crypto';
import { clickToken, type ClickReference } from '../../../shared/clicks/click-token';
import { followTrackedLink, type FollowLinkDependencies } from '../../../shared/clicks/follow-tracked-link';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { fixedClock } from '../../../shared/ports/clock';
import { StoreUnavailableError } from '../../../shared/ports/errors';

const key = randomBytes(32);
const reference: ClickReference = { jobId: 'pub_8fJ2kQx0aZ9yT3bN1cV7mL', chunkIndex: 0, index: 7, buttonIndex: 0, scope: 'job' };
const token = clickToken(key, reference);
const url = 'https://shop.example/p/42';
const browser = 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36';

function linkPorts(recordClick: FollowLinkDependencies['outcomes']['recordClick']) {
  const published: CustomerEvent[] = [];
  const notCounted: unknown[] = [];
  const recorded: number[] = [];
  const dependencies: FollowLinkDependencies = {
    keys: { verifyingKey: async () => key },
    destinations: { targetOf: async () => ({ url, organizationId: 'org_1' }) },
    outcomes: {
      recordClick: async (location, at) => {
        recorded.push(location.index);
        return recordClick(location, at);
      },
    },
    events: { publish: async (_organizationId, event) => void published.push(event) },
    clickNotCounted: (fault) => void notCounted.push(fault),
    clock: fixedClock('2026-12-04T10:00:00Z'),
  };
  return { dependencies, published, notCounted, recorded };
}

describe('following a tracked link', () => {
  it('redirects and counts a person’s click, telling the customer only when it added a fact', async () => {
    const first = linkPorts(async () => 'first');
    expect(await followTrackedLink(first.dependencies, { token, method: 'GET', userAgent: browser })).toEqual({ kind: 'redirect', url, counted: true });
    expect(first.published.map((event) => [event.type, event.data.first])).toEqual([['link.clicked', true]]);

    const same = linkPorts(async () => 'unchanged');
    await followTrackedLink(same.dependencies, { token, method: 'GET', userAgent: browser });
    expect([same.recorded, same.published]).toEqual([[7], []]);
  });

  it('redirects a link preview and a HEAD without counting them', async () => {
    const ports = linkPorts(async () => 'first');
    for (const request of [
      { token, method: 'GET' as const, userAgent: 'WhatsApp/2.24.1 A' },
      { token, method: 'HEAD' as const, userAgent: browser },
    ]) {
      expect(await followTrackedLink(ports.dependencies, request)).toEqual({ kind: 'redirect', url, counted: false });
    }
    expect(ports.recorded).toEqual([]);
  });

  it('still sends the person on when the count fails, and reports the click not counted', async () => {
    const fault = new StoreUnavailableError('Store unavailable: TimeoutError');
    const ports = linkPorts(async () => {
      throw fault;
    });
    expect(await followTrackedLink(ports.dependencies, { token, method: 'GET', userAgent: browser })).toEqual({ kind: 'redirect', url, counted: false });
    expect([ports.notCounted, ports.published]).toEqual([[fault], []]);
  });

  it('fails when the destination cannot be read (nothing was written: a retry counts once)', async () => {
    const ports = linkPorts(async () => 'first');
    ports.dependencies.destinations = {
      targetOf: async () => {
        throw new StoreUnavailableError('Store unavailable: TimeoutError');
      },
    };
    await expect(followTrackedLink(ports.dependencies, { token, method: 'GET', userAgent: browser })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect([ports.recorded, ports.notCounted]).toEqual([[], []]);
  });

  it('answers not found for an altered token without reading the store', async () => {
    const ports = linkPorts(async () => 'first');
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await followTrackedLink(ports.dependencies, { token: altered, method: 'GET', userAgent: browser })).toEqual({ kind: 'not-found' });
    expect(ports.recorded).toEqual([]);
  });
});
