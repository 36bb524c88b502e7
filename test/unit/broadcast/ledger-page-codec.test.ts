/**
 * The ledger page codec (shared/adapters/dynamodb/ledger-page-items.ts) is total: every entry,
 * whatever its strings hold, decodes to itself; values in the plain form (every page written before
 * the escaped form) read as they always did; the broken plain form of issue 35 (an empty `to`) is
 * refused, for the repair command to rewrite.
 */
import fc from 'fast-check';
import { decodePageEntry, encodePageEntry } from '../../../shared/adapters/dynamodb/ledger-page-items';
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
});
