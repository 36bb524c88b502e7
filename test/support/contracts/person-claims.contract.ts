/**
 * What every PersonClaims does, as observed through the port (fake InMemoryPersonClaims, adapter
 * DynamoDbPersonClaims): the first index offered for a person in a campaign holds them; the same
 * index offered again (a redelivered page) answers that index; campaigns are apart.
 */
import type { PersonClaims } from '../../../shared/campaigns/ports';

let sequence = 0;
const freshCampaign = () => `cmp_claims_${process.pid}_${Date.now().toString(36)}_${(sequence += 1)}`;

export function describePersonClaimsContract(name: string, makeClaims: () => PersonClaims | Promise<PersonClaims>): void {
  describe(`PersonClaims contract: ${name}`, () => {
    let claims: PersonClaims;
    beforeAll(async () => {
      claims = await makeClaims();
    });

    it('gives each new person the index offered', async () => {
      const campaignId = freshCampaign();
      const held = await claims.claimPersons(campaignId, [
        { personKey: '919876543210', index: 0 },
        { personKey: 'IN.3405abc', index: 1 },
      ]);
      expect([...held]).toEqual([
        ['919876543210', 0],
        ['IN.3405abc', 1],
      ]);
    });

    it('keeps a claimed person at their first index, and answers that index again for the same offer (idempotent)', async () => {
      const campaignId = freshCampaign();
      await claims.claimPersons(campaignId, [{ personKey: '447700900001', index: 3 }]);
      expect((await claims.claimPersons(campaignId, [{ personKey: '447700900001', index: 3 }])).get('447700900001')).toBe(3);
      expect((await claims.claimPersons(campaignId, [{ personKey: '447700900001', index: 9 }])).get('447700900001')).toBe(3);
    });

    it('claims a person once per campaign, in each campaign', async () => {
      const [first, second] = [freshCampaign(), freshCampaign()];
      await claims.claimPersons(first, [{ personKey: '447700900002', index: 5 }]);
      expect((await claims.claimPersons(second, [{ personKey: '447700900002', index: 0 }])).get('447700900002')).toBe(0);
    });

    it('answers every person of a large page, new and claimed mixed', async () => {
      const campaignId = freshCampaign();
      await claims.claimPersons(
        campaignId,
        Array.from({ length: 60 }, (_, index) => ({ personKey: `p${index}`, index })),
      );
      const page = Array.from({ length: 180 }, (_, index) => ({ personKey: `p${index}`, index: 1000 + index }));
      const held = await claims.claimPersons(campaignId, page);
      expect(held.size).toBe(180);
      expect(held.get('p0')).toBe(0);
      expect(held.get('p59')).toBe(59);
      expect(held.get('p60')).toBe(1060);
      expect(held.get('p179')).toBe(1179);
    });

    it('gives a person raced for by two expanders one index, the same for both', async () => {
      const campaignId = freshCampaign();
      const [left, right] = await Promise.all([
        claims.claimPersons(campaignId, [{ personKey: '5511999990000', index: 10 }]),
        claims.claimPersons(campaignId, [{ personKey: '5511999990000', index: 20 }]),
      ]);
      expect(left.get('5511999990000')).toBe(right.get('5511999990000'));
      expect([10, 20]).toContain(left.get('5511999990000'));
    });
  });
}
