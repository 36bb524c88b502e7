/**
 * The ledger page codec (shared/adapters/dynamodb/ledger-page-items.ts) is total: every entry,
 * whatever its strings hold, decodes to itself; values in the plain form (every page written before
 * the escaped form) read as they always did; the broken plain form of issue 35 (an empty `to`) is
 * refused, for the repair command to rewrite.
 */
import fc from 'fast-check';
import { decodeLedgerPage, decodePageEntry, encodePageEntry, LEDGER_PAGE_SIZE, outcomePageWrites } from '../../../shared/adapters/dynamodb/ledger-page-items';
import { MalformedMessagingItemError } from '../../../shared/adapters/dynamodb/messaging-table';
import type { LedgerEntry, LedgerStatus } from '../../../shared/broadcast/ports';
import { refusedRecipientKey } from '../../../shared/broadcast/earlier-recipients';

const statuses: LedgerStatus[] = ['SENDING', 'SENT', 'FAILED', 'UNKNOWN', 'CANCELLED', 'HELD_OUT'];
/** Any text, separators and escapes included, lone surrogates too. */
const text = fc.oneof(fc.string({ unit: 'binary' }), fc.stringMatching(/^[|%7Ce25]*$/), fc.constantFrom('', '|', '%', '%7C', '%25', '%%', '|%|'));

const entryArbitrary: fc.Arbitrary<LedgerEntry> = fc
  .record({
    index: fc.nat({ max: 9_999 }),
    to: text,
    status: fc.constantFrom(...statuses),
    attempts: fc.nat({ max: 1_000 }),
    updatedAt: fc
      .date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('2100-01-01T00:00:00.000Z'), noInvalidDate: true })
      .map((date) => date.toISOString()),
    messageId: fc.option(text, { nil: undefined }),
    failureReasonCode: fc.option(text, { nil: undefined }),
    sentVia: fc.option(fc.constant('marketing_messages' as const), { nil: undefined }),
    held: fc.option(fc.constant(true as const), { nil: undefined }),
  })
  .map((entry) => Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)) as unknown as LedgerEntry);

describe('ledger page codec', () => {
  it('encode then decode is the identity for every entry and claim token, whatever its strings hold', () => {
    fc.assert(
      fc.property(entryArbitrary, text, (entry, token) => {
        const decoded = decodePageEntry(entry.index, encodePageEntry(entry, token));
        expect(decoded).toEqual(token === '' ? { entry } : { entry, token });
      }),
      { numRuns: 2_000 },
    );
  });

  it('re-encoding a decoded value gives the stored value back (what conditional writes compare)', () => {
    fc.assert(
      fc.property(entryArbitrary, text, (entry, token) => {
        const stored = encodePageEntry(entry, token);
        const { entry: decoded, token: decodedToken } = decodePageEntry(entry.index, stored);
        expect(encodePageEntry(decoded, decodedToken)).toBe(stored);
      }),
    );
  });

  it('a refused earlier recipient round-trips under its safe key, and so would one with an empty or | number', () => {
    const refused: LedgerEntry = {
      index: 0,
      to: refusedRecipientKey(0),
      status: 'FAILED',
      failureReasonCode: 'INVALID_PHONE_NUMBER',
      attempts: 0,
      updatedAt: '2026-12-01T10:00:00.000Z',
    };
    expect(encodePageEntry(refused)).toBe(`F${Date.parse(refused.updatedAt).toString(36)}|0|||invalid:0||INVALID_PHONE_NUMBER`);
    for (const to of [refusedRecipientKey(0), '', '91|98', '%7C']) {
      expect(decodePageEntry(0, encodePageEntry({ ...refused, to })).entry).toEqual({ ...refused, to });
    }
  });

  it('keeps the plain form for entries that need no escaping, and reads pages written before the escaped form', () => {
    const sent: LedgerEntry = {
      index: 3,
      to: '919800000000',
      status: 'SENT',
      messageId: 'wamid.HBgM==',
      attempts: 1,
      updatedAt: '2026-11-27T08:00:00.000Z',
      sentVia: 'marketing_messages',
    };
    const value = encodePageEntry(sent, 'k3Jd9a0Q');
    expect(value).toBe(`S${Date.parse(sent.updatedAt).toString(36)}|1|m|k3Jd9a0Q|919800000000|wamid.HBgM==|`);
    expect(decodePageEntry(3, value)).toEqual({ entry: sent, token: 'k3Jd9a0Q' });
    // A reason holding the separator stays plain: it is the last field.
    expect(decodePageEntry(3, 'F0|0|||9198|||reason|with|bars').entry).toEqual({
      index: 3,
      to: '9198',
      status: 'FAILED',
      failureReasonCode: '|reason|with|bars',
      attempts: 0,
      updatedAt: '1970-01-01T00:00:00.000Z',
    });
  });

  it('refuses the broken plain form (an empty to, written by the accept before issue 35) and malformed escapes', () => {
    const broken = `F${Date.parse('2026-11-27T08:00:00.000Z').toString(36)}|0|||||INVALID_PHONE_NUMBER`;
    expect(() => decodePageEntry(0, broken)).toThrow(MalformedMessagingItemError);
    expect(() => decodePageEntry(0, 'F0|0|e||a%41b||')).toThrow(MalformedMessagingItemError);
    expect(() => decodePageEntry(0, 'F0|0|e||ab|')).toThrow(MalformedMessagingItemError);
  });

  it('a flush’s page writes: a page it holds whole is one item of its keys, expiresAt and its entries (decoding to them); a page held in part an UpdateItem of its entries only', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: LEDGER_PAGE_SIZE * 4 - 1 }), { minLength: 1 }), entryArbitrary, (indexes, template) => {
        const entries = indexes.map((index) => ({ ...template, index }));
        const { items, updates } = outcomePageWrites('pub_1', 2, entries, 1_900_000_000);
        const countOn = (page: number) => indexes.filter((index) => Math.floor(index / LEDGER_PAGE_SIZE) === page).length;
        expect(items.map((item) => item.sk).sort()).toEqual([0, 1, 2, 3].filter((page) => countOn(page) === LEDGER_PAGE_SIZE).map((page) => `P#0000${page}`));
        for (const item of items) {
          expect(Object.keys(item).sort()).toEqual(['expiresAt', 'pk', 'sk', ...Array.from({ length: LEDGER_PAGE_SIZE }, (_, offset) => `e${offset}`)].sort());
          expect(item).toMatchObject({ pk: 'LEDGER#pub_1#2', expiresAt: 1_900_000_000 });
          const decoded = decodeLedgerPage(item).map(({ entry }) => entry);
          expect(decoded.sort((a, b) => a.index - b.index)).toEqual(
            entries.filter((entry) => decoded.some((read) => read.index === entry.index)).sort((a, b) => a.index - b.index),
          );
        }
        for (const update of updates) {
          const page = Number(update.Key.sk.slice(2));
          expect(countOn(page)).toBeLessThan(LEDGER_PAGE_SIZE);
          expect(update.ConditionExpression).toBeUndefined();
          expect(Object.values(update.ExpressionAttributeNames).sort()).toEqual(
            indexes
              .filter((index) => Math.floor(index / LEDGER_PAGE_SIZE) === page)
              .map((index) => `e${index % LEDGER_PAGE_SIZE}`)
              .sort(),
          );
        }
        expect(items.length * LEDGER_PAGE_SIZE + updates.reduce((sum, update) => sum + Object.keys(update.ExpressionAttributeNames).length, 0)).toBe(
          indexes.length,
        );
      }),
      { numRuns: 300 },
    );
    const twelve = Array.from({ length: 12 }, (_, index) => ({
      index,
      to: `9198${index}`,
      status: 'SENT' as const,
      attempts: 1,
      updatedAt: '2026-11-27T08:00:00.000Z',
    }));
    const { items, updates } = outcomePageWrites('pub_1', 0, twelve, 1);
    expect([items.map((item) => item.sk), updates.map((update) => update.Key.sk)]).toEqual([['P#00000'], ['P#00001']]);
  });
});
