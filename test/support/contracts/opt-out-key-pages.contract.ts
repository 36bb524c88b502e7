/**
 * What every OptOutKeyPages does (the opt-out list read as keys, for an audience's `optedOutCount`):
 * run on the in-memory opt-out fake (test/unit/contracts) and the DynamoDB adapter on dynalite
 * (test/integration/contracts), the list written through the OptOutRepository it reads.
 */
import type { OptOutKeyPages } from '../../../shared/audiences/ports';
import type { OptOutRepository } from '../../../shared/inbox/opt-outs';

let sequence = 0;
const freshOrganization = () => `org_${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}keys`;

export function describeOptOutKeyPagesContract(
  name: string,
  make: () => { optOuts: OptOutRepository; keys: OptOutKeyPages } | Promise<{ optOuts: OptOutRepository; keys: OptOutKeyPages }>,
): void {
  describe(`OptOutKeyPages contract: ${name}`, () => {
    it('pages the keys on the list in key order: opt-out keys and BSUIDs, never a number taken off it nor another organization’s', async () => {
      const { optOuts, keys } = await make();
      const organizationId = freshOrganization();
      const optOut = (phoneNumber: string) =>
        optOuts.updateOptOut(organizationId, phoneNumber, () => ({ state: 'opted-out', phoneNumber, source: 'api', createdAt: 'T' }));
      for (const number of ['447700900003', '5215511112222', 'GB.1', '447700900001', '447700900002']) await optOut(number);
      await optOuts.updateOptOut(organizationId, '447700900002', () => ({ state: 'opted-in', phoneNumber: '447700900002' }));
      await optOuts.updateOptOut(freshOrganization(), '447700900009', () => ({
        state: 'opted-out',
        phoneNumber: '447700900009',
        source: 'api',
        createdAt: 'T',
      }));
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await keys.optedOutKeys(organizationId, { limit: 2, cursor });
        seen.push(...page.keys);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(seen).toEqual(['447700900001', '447700900003', '525511112222', 'GB.1']);
    });
  });
}
