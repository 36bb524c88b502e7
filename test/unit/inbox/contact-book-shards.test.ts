import { PAIR_SHARDS, inboxKeys, pairShardOf } from '../../../shared/adapters/dynamodb/inbox-table';

// A first-contact broadcast writes two pair items per recipient: in one partition key that is 2,000
// writes/s at 1,000 messages/s, over DynamoDB's 1,000 WCU/s per partition (docs/SCALE.md).
describe('contact book partitions', () => {
  test('a key always lands in the same shard, and both directions of a pair are found by their own key', () => {
    expect(pairShardOf('447700900123')).toBe(pairShardOf('447700900123'));
    const phone = inboxKeys.identityPair('org_1', '447700900123');
    expect(phone.pk).toBe(`ORG#org_1#PAIRS#${pairShardOf('447700900123')}`);
    expect(phone.sk).toBe('PHONE#447700900123');
    expect(inboxKeys.identityPair('org_1', 'US.1349').sk).toBe('USERID#US.1349');
  });

  test('consecutive numbers of a broadcast spread over every shard, none with more than twice its share', () => {
    const counts = new Array<number>(PAIR_SHARDS).fill(0);
    for (let n = 0; n < 16_000; n += 1) counts[pairShardOf(String(919_800_000_000 + n))]! += 1;
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(Math.max(...counts)).toBeLessThan((2 * 16_000) / PAIR_SHARDS);
  });
});
