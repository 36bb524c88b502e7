/**
 * What every ContactBook does (Meta's BSUID ↔ phone pairs), as observed through the port: run on
 * the in-memory fake (test/unit/contracts) and the DynamoDB adapter on dynalite
 * (test/integration/contracts). Each test uses its own organization.
 */
import type { ContactBook } from '../../../shared/inbox/contact-book';

let sequence = 0;
const freshOrganization = () => `org_${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}pairs`;
const t1 = '2026-05-04T08:00:00.000Z';
const t2 = '2026-05-04T09:00:00.000Z';
const t3 = '2026-05-04T10:00:00.000Z';

export function describeContactBookContract(name: string, makeBook: () => ContactBook | Promise<ContactBook>): void {
  describe(`ContactBook contract: ${name}`, () => {
    let book: ContactBook;
    let organizationId: string;
    beforeAll(async () => {
      book = await makeBook();
    });
    beforeEach(() => {
      organizationId = freshOrganization();
    });

    it('records both directions of a pair, found by either key (strongly consistent and batched)', async () => {
      await expect(book.recordPair(organizationId, { phoneNumber: '447700900123', userId: 'GB.111', at: t1 })).resolves.toBe('recorded');
      await expect(book.pairOf(organizationId, 'GB.111')).resolves.toEqual({ phoneNumber: '447700900123', userId: 'GB.111', at: t1 });
      await expect(book.pairOf(organizationId, '447700900123')).resolves.toEqual({ phoneNumber: '447700900123', userId: 'GB.111', at: t1 });
      const found = await book.pairsOf(organizationId, ['GB.111', '447700900123', '447700900999', 'GB.111']);
      expect([...found.keys()].sort()).toEqual(['447700900123', 'GB.111']);
      expect(found.get('GB.111')?.phoneNumber).toBe('447700900123');
      await expect(book.pairOf(freshOrganization(), 'GB.111')).resolves.toBeUndefined();
    });

    it('takes the newest pair by Meta time: a phone moves to a new BSUID, an older pair arriving late is stale', async () => {
      await book.recordPair(organizationId, { phoneNumber: '447700900123', userId: 'GB.old', at: t1 });
      await expect(book.recordPair(organizationId, { phoneNumber: '447700900123', userId: 'GB.new', at: t3 })).resolves.toBe('recorded');
      expect((await book.pairOf(organizationId, '447700900123'))?.userId).toBe('GB.new');
      expect((await book.pairOf(organizationId, 'GB.new'))?.phoneNumber).toBe('447700900123');
      await expect(book.recordPair(organizationId, { phoneNumber: '447700900123', userId: 'GB.old', at: t2 })).resolves.toBe('stale');
      expect((await book.pairOf(organizationId, '447700900123'))?.userId).toBe('GB.new');
    });

    it('recording the same pair again (a retry, an older copy) is recorded and keeps the newest time', async () => {
      await book.recordPair(organizationId, { phoneNumber: '447700900123', userId: 'GB.1', at: t2 });
      await expect(book.recordPair(organizationId, { phoneNumber: '447700900123', userId: 'GB.1', at: t2 })).resolves.toBe('recorded');
      await expect(book.recordPair(organizationId, { phoneNumber: '447700900123', userId: 'GB.1', at: t1 })).resolves.toBe('recorded');
      expect((await book.pairOf(organizationId, 'GB.1'))?.at).toBe(t2);
    });

    it('keys a number by its opt-out key: a Mexican or Brazilian mobile is found in either form, and its two forms are one pair', async () => {
      await expect(book.recordPair(organizationId, { phoneNumber: '5215511112222', userId: 'MX.1', at: t1 })).resolves.toBe('recorded');
      await expect(book.pairOf(organizationId, '525511112222')).resolves.toEqual({ phoneNumber: '5215511112222', userId: 'MX.1', at: t1 });
      await expect(book.pairOf(organizationId, '5215511112222')).resolves.toEqual({ phoneNumber: '5215511112222', userId: 'MX.1', at: t1 });
      const found = await book.pairsOf(organizationId, ['525511112222', '5215511112222', 'MX.1']);
      expect([...found.keys()].sort()).toEqual(['5215511112222', '525511112222', 'MX.1']);
      // The other form of the same number with the same BSUID is the same pair, not a newer one.
      await expect(book.recordPair(organizationId, { phoneNumber: '525511112222', userId: 'MX.1', at: t1 })).resolves.toBe('recorded');
      await expect(book.recordPair(organizationId, { phoneNumber: '558188887777', userId: 'BR.1', at: t2 })).resolves.toBe('recorded');
      expect((await book.pairOf(organizationId, '5581988887777'))?.userId).toBe('BR.1');
      // A newer pair in the other form moves the number to the new BSUID.
      await expect(book.recordPair(organizationId, { phoneNumber: '525511112222', userId: 'MX.2', at: t3 })).resolves.toBe('recorded');
      expect((await book.pairOf(organizationId, '5215511112222'))?.userId).toBe('MX.2');
    });
  });
}
