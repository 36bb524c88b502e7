import { MessagingLimitExceededError } from '../../../shared/broadcast/errors';
import { reachHeadroom, releaseReach, reserveReach, reachHourOf } from '../../../shared/broadcast/messaging-limit';
import { CachedMessagingTiers, messagingTierOf } from '../../../shared/broadcast/messaging-tiers';
import { cardinalityOf, deserializeSketch, recipientHash, unionOfAll } from '../../../shared/broadcast/reach-sketch';
import { fixedClock } from '../../../shared/ports/clock';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { FixedMessagingTiers, InMemoryPortfolioReach, ScriptedCloudApi, SENDER } from '../../support/broadcast-fakes';

const numbers = (from: number, count: number) => Array.from({ length: count }, (_, offset) => `9198${String(from + offset).padStart(8, '0')}`);
const AT = new Date('2026-03-01T09:30:00.000Z');
const HOUR = 3_600_000;

function setup(tier = 'TIER_250') {
  const messagingTiers = new FixedMessagingTiers();
  messagingTiers.tiers.set(SENDER.phoneNumberId, tier);
  const portfolioReach = new InMemoryPortfolioReach();
  const dependencies = { messagingTiers, portfolioReach };
  const reserve = (recipients: readonly string[], at = AT, sender = SENDER) => reserveReach(dependencies, sender, recipients, at);
  const counted = async (at = AT) =>
    cardinalityOf(
      unionOfAll(
        (await portfolioReach.bucketsOf(SENDER.businessId, reachHourOf(new Date(at.getTime() - 24 * HOUR)), reachHourOf(at))).map((bucket) =>
          deserializeSketch(bucket.sketch),
        ),
      ),
    );
  const release = (reservation: Awaited<ReturnType<typeof reserve>>) => releaseReach(dependencies, reservation);
  return { messagingTiers, portfolioReach, reserve, release, counted };
}

async function refusal(promise: Promise<unknown>): Promise<MessagingLimitExceededError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MessagingLimitExceededError);
  return error as MessagingLimitExceededError;
}

describe('reserveReach: the messaging tier at accept time', () => {
  test('a tier of 250 and 300 new recipients: refused with both numbers, nothing recorded', async () => {
    const kit = setup('TIER_250');
    const error = await refusal(kit.reserve(numbers(0, 300)));
    expect(error).toMatchObject({ code: 'MESSAGING_LIMIT_EXCEEDED', limit: 250, alreadyReached: 0, newRecipients: 300, tier: 'TIER_250', businessId: 'biz_1' });
    expect(error.message).toBe(
      'This broadcast would bring business portfolio biz_1 to 300 unique recipients in a moving 24 hours (0 already reached, 300 new); ' +
        'its messaging limit (TIER_250) is 250. Nothing was queued: send to at most 250 new recipients, or later',
    );
    expect(kit.portfolioReach.writes).toBe(0);
    expect(await kit.counted()).toBe(0);
  });

  test('200, then 100 of which 50 repeat: 250 unique fits exactly; one more new recipient does not', async () => {
    const kit = setup('TIER_250');
    await kit.reserve(numbers(0, 200));
    await kit.reserve([...numbers(150, 50), ...numbers(200, 50)]);
    expect(await kit.counted()).toBe(250);
    const error = await refusal(kit.reserve([...numbers(0, 10), ...numbers(250, 1)]));
    expect(error).toMatchObject({ alreadyReached: 250, newRecipients: 1, limit: 250 });
    expect(error.message).toContain('to 251 unique recipients in a moving 24 hours (250 already reached, 1 new); its messaging limit (TIER_250) is 250');
    // Recipients already reached may be messaged again.
    await kit.reserve(numbers(0, 250));
  });

  test('the window: the send hour and the 24 before it; older buckets no longer count', async () => {
    const kit = setup('TIER_250');
    await kit.reserve(numbers(0, 200), new Date(AT.getTime() - 25 * HOUR));
    await kit.reserve(numbers(1000, 50), new Date(AT.getTime() - 24 * HOUR));
    // 25 h later the first 200 have left the window, the 50 of 24 h ago have not.
    await refusal(kit.reserve(numbers(2000, 201)));
    await kit.reserve(numbers(2000, 200));
    expect(await kit.counted()).toBe(250);
  });

  test('recipients go into the bucket of the send time given (a scheduled job: its send hour)', async () => {
    const kit = setup('TIER_2K');
    const later = new Date('2026-03-03T17:05:00.000Z');
    await kit.reserve(numbers(0, 10), later);
    expect([...kit.portfolioReach.buckets.keys()]).toEqual(['biz_1#2026-03-03T17']);
  });

  test('a lower tier: recipients already reached may still be messaged, a new one is refused', async () => {
    const kit = setup('TIER_2K');
    await kit.reserve(numbers(0, 300));
    kit.messagingTiers.tiers.set(SENDER.phoneNumberId, 'TIER_250');
    await kit.reserve(numbers(0, 300));
    const error = await refusal(kit.reserve([...numbers(0, 10), ...numbers(300, 1)]));
    expect(error).toMatchObject({ alreadyReached: 300, newRecipients: 1, limit: 250 });
  });

  test('a repeat of the same recipients in the same hour writes nothing', async () => {
    const kit = setup('TIER_2K');
    await kit.reserve(numbers(0, 100));
    await kit.reserve(numbers(0, 100));
    expect(kit.portfolioReach.writes).toBe(1);
  });

  test('another accept writing the bucket first: re-read and retried, both counted, the limit still holds', async () => {
    const kit = setup('TIER_250');
    let interleaved = false;
    kit.portfolioReach.beforeWrite = async () => {
      if (interleaved) return;
      interleaved = true;
      await kit.reserve(numbers(1000, 100));
    };
    await kit.reserve(numbers(0, 100));
    expect(kit.portfolioReach.conflicts).toBe(1);
    expect(await kit.counted()).toBe(200);

    // The concurrent writer takes the room the first one counted on: the retry sees it and refuses.
    const crowded = setup('TIER_250');
    let raced = false;
    crowded.portfolioReach.beforeWrite = async () => {
      if (raced) return;
      raced = true;
      await crowded.reserve(numbers(1000, 200));
    };
    const error = await refusal(crowded.reserve(numbers(0, 100)));
    expect(error).toMatchObject({ alreadyReached: 200, newRecipients: 100 });
    expect(await crowded.counted()).toBe(200);
  });

  test('a bucket always taken by others: 503-class StoreUnavailableError after a bounded number of attempts', async () => {
    const kit = setup('TIER_2K');
    kit.portfolioReach.beforeWrite = async (businessId, bucket) => {
      const key = `${businessId}#${bucket.hour}`;
      const current = kit.portfolioReach.buckets.get(key);
      kit.portfolioReach.buckets.set(key, { hour: bucket.hour, sketch: current?.sketch ?? Uint8Array.of(1), version: (current?.version ?? 0) + 1 });
    };
    await expect(kit.reserve(numbers(0, 10))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(kit.portfolioReach.conflicts).toBe(8);
  });

  test('an unlimited number reads and writes nothing', async () => {
    const kit = setup('TIER_UNLIMITED');
    const read = jest.spyOn(kit.portfolioReach, 'bucketsOf');
    await kit.reserve(numbers(0, 10_000));
    expect(read).not.toHaveBeenCalled();
    expect(kit.portfolioReach.writes).toBe(0);
  });

  test('the numbers of one portfolio share the limit; another portfolio has its own', async () => {
    const kit = setup('TIER_250');
    const sameBusiness = { ...SENDER, phoneNumberId: 'pn_9' };
    kit.messagingTiers.tiers.set('pn_9', 'TIER_250');
    await kit.reserve(numbers(0, 200));
    await refusal(kit.reserve(numbers(500, 51), AT, sameBusiness));
    await kit.reserve(numbers(500, 250), AT, { ...sameBusiness, businessId: 'biz_2' });
  });

  test('above the sparse size the count is an estimate (HyperLogLog) within a few percent', async () => {
    const kit = setup('TIER_10K');
    await kit.reserve(numbers(0, 6000));
    await kit.reserve(numbers(3000, 3000));
    const counted = await kit.counted();
    expect(Math.abs(counted - 6000) / 6000).toBeLessThan(0.04);
    const error = await refusal(kit.reserve(numbers(6000, 4500)));
    expect(Math.abs(error.alreadyReached - 6000) / 6000).toBeLessThan(0.04);
  });
});

describe('organizations sharing a portfolio: "new" never tells one whom the other reached', () => {
  const other = { ...SENDER, organizationId: 'org_other', phoneNumberId: 'pn_other', phoneNumber: '919800000099' };
  function shared() {
    const kit = setup('TIER_250');
    kit.messagingTiers.tiers.set(other.phoneNumberId, 'TIER_250');
    const headroom = (recipients: readonly string[], sender = SENDER) =>
      reachHeadroom({ messagingTiers: kit.messagingTiers, portfolioReach: kit.portfolioReach }, sender, recipients, AT);
    return { ...kit, headroom };
  }

  test("the dry run's newRecipients counts against the organization's own reach; the headroom is the portfolio's", async () => {
    const kit = shared();
    const [probe] = numbers(0, 1);
    const before = await kit.headroom([probe!]);
    // The other organization messages the probed number (and 9 more).
    await kit.reserve(numbers(0, 10), AT, other);
    const after = await kit.headroom([probe!]);
    expect(after.newRecipients).toBe(before.newRecipients);
    expect(after).toEqual({ tier: 'TIER_250', limit: 250, usedLast24h: 10, headroom: 240, newRecipients: 1 });
    // Its own sends do count as reached.
    await kit.reserve([probe!]);
    expect(await kit.headroom([probe!])).toMatchObject({ usedLast24h: 10, newRecipients: 0 });
    expect(await kit.headroom([probe!], other)).toMatchObject({ usedLast24h: 10, newRecipients: 0 });
  });

  test("a refusal's new count and whether it refuses do not depend on whom the other organization reached", async () => {
    const kit = shared();
    await kit.reserve(numbers(0, 200), AT, other);
    // 50 filler numbers and one probe: 251 for the portfolio whether or not the other organization reached the probe.
    const reachedByOther = await refusal(kit.reserve([...numbers(1000, 50), ...numbers(0, 1)]));
    const reachedByNobody = await refusal(kit.reserve([...numbers(1000, 50), ...numbers(5000, 1)]));
    expect(reachedByOther).toMatchObject({ alreadyReached: 200, newRecipients: 51 });
    expect(reachedByNobody).toMatchObject({ alreadyReached: 200, newRecipients: 51 });
    expect(reachedByOther.message).toBe(reachedByNobody.message);
    // The stored count stays a set: a recipient both organizations reached counts once.
    await kit.reserve(numbers(0, 50));
    expect(await kit.counted()).toBe(200);
  });

  test("a release takes the recipients out of the organization's own part too", async () => {
    const kit = shared();
    await kit.reserve(numbers(0, 10), AT, other);
    const reservation = await kit.reserve(numbers(5, 10));
    expect(await kit.headroom(numbers(5, 10))).toMatchObject({ newRecipients: 0, usedLast24h: 15 });
    await kit.release(reservation);
    expect(await kit.headroom(numbers(5, 10))).toMatchObject({ newRecipients: 10, usedLast24h: 10 });
    expect(await kit.headroom(numbers(5, 10), other)).toMatchObject({ newRecipients: 5 });
  });
});

describe('releaseReach: an accept that failed after reserving gives its recipients back', () => {
  test('the recipients it added leave the exact set; those counted before stay; the count is as before', async () => {
    const kit = setup('TIER_250');
    await kit.reserve(numbers(0, 100));
    const reservation = await kit.reserve(numbers(50, 100));
    expect(reservation).toEqual({
      businessId: 'biz_1',
      hour: '2026-03-01T09',
      hashes: expect.any(Array),
      organizationId: SENDER.organizationId,
      ownHashes: expect.any(Array),
    });
    expect([...reservation!.hashes].sort()).toEqual(numbers(100, 50).map(recipientHash).sort());
    expect([...reservation!.ownHashes!].sort()).toEqual(numbers(100, 50).map(recipientHash).sort());
    expect(await kit.counted()).toBe(150);
    await kit.release(reservation);
    expect(await kit.counted()).toBe(100);
    // A release retried after its write was applied finds nothing to take out and writes nothing.
    const writes = kit.portfolioReach.writes;
    await kit.release(reservation);
    expect(kit.portfolioReach.writes).toBe(writes);
    // The room is back: 150 new recipients fit again.
    await kit.reserve(numbers(1000, 150));
  });

  test('nothing to give back: an unlimited number, no new recipient', async () => {
    expect(await setup('TIER_UNLIMITED').reserve(numbers(0, 10))).toBeUndefined();
    const kit = setup('TIER_250');
    await kit.reserve(numbers(0, 10));
    expect(await kit.reserve(numbers(0, 10))).toBeUndefined();
    await kit.release(undefined);
    expect(await kit.counted()).toBe(10);
  });

  test('another accept writing the bucket between: re-read and retried; what the other added stays', async () => {
    const kit = setup('TIER_250');
    const reservation = await kit.reserve(numbers(0, 100));
    let interleaved = false;
    kit.portfolioReach.beforeWrite = async () => {
      if (interleaved) return;
      interleaved = true;
      await kit.reserve(numbers(500, 20));
    };
    await kit.release(reservation);
    expect(kit.portfolioReach.conflicts).toBe(1);
    expect(await kit.counted()).toBe(20);
  });

  test('a HyperLogLog bucket cannot lose members: such a reservation stays counted (none is returned)', async () => {
    const kit = setup('TIER_10K');
    await kit.reserve(numbers(0, 4_000));
    // 4,000 + 200 passes the exact set's 4,096: the hour's bucket turns into a HyperLogLog.
    expect(await kit.reserve(numbers(4_000, 200))).toBeUndefined();
    const dense = await kit.counted();
    // A reservation made while the bucket was exact, released after it turned dense: it stays counted.
    const other = setup('TIER_10K');
    const early = await other.reserve(numbers(0, 10));
    await other.reserve(numbers(100, 5_000));
    await other.release(early);
    expect(Math.abs((await other.counted()) - 5_010) / 5_010).toBeLessThan(0.04);
    expect(Math.abs(dense - 4_200) / 4_200).toBeLessThan(0.04);
  });
});

describe('messaging tiers from the Graph API', () => {
  test('each value maps to its limit; unknown or missing ones are unlimited', () => {
    expect(['TIER_50', 'TIER_250', 'TIER_1K', 'TIER_2K', 'TIER_10K', 'TIER_100K'].map((tier) => messagingTierOf(tier).limit)).toEqual([
      50, 250, 1000, 2000, 10_000, 100_000,
    ]);
    expect(messagingTierOf('TIER_UNLIMITED')).toEqual({ tier: 'TIER_UNLIMITED' });
    expect(messagingTierOf('TIER_5M')).toEqual({ tier: 'TIER_5M' });
    expect(messagingTierOf(undefined)).toEqual({ tier: 'UNKNOWN' });
  });

  test('read once per phone number id within the TTL, again after it; a failed read is not cached', async () => {
    const clock = fixedClock('2026-03-01T09:00:00.000Z');
    const upstream = new ScriptedCloudApi(clock);
    upstream.messagingLimits.set('pn_1', 'TIER_250');
    const tiers = new CachedMessagingTiers(upstream, clock, 300_000);
    expect(await tiers.tierOf(SENDER)).toEqual({ tier: 'TIER_250', limit: 250 });
    upstream.messagingLimits.set('pn_1', 'TIER_2K');
    clock.advanceBy(299_999);
    expect(await tiers.tierOf(SENDER)).toEqual({ tier: 'TIER_250', limit: 250 });
    expect(upstream.messagingLimitCalls).toBe(1);
    clock.advanceBy(1);
    expect(await tiers.tierOf(SENDER)).toEqual({ tier: 'TIER_2K', limit: 2000 });
    expect(await tiers.tierOf({ ...SENDER, phoneNumberId: 'pn_2' })).toEqual({ tier: 'TIER_UNLIMITED' });
    expect(upstream.messagingLimitCalls).toBe(3);

    const failing = new CachedMessagingTiers({ messagingLimitOf: jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('TIER_10K') }, clock);
    await expect(failing.tierOf(SENDER)).rejects.toThrow('down');
    expect(await failing.tierOf(SENDER)).toEqual({ tier: 'TIER_10K', limit: 10_000 });
  });
});
