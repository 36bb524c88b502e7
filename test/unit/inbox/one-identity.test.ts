/**
 * One identity per user (docs/ORGANIZATIONS-AND-V1.md "One identity per user"): the contact book's
 * pairs, the opt-out merge rule and its write-then-read order, inbound matching by BSUID, number or
 * pair, and the 24-hour window over a pair.
 */
import { alignedChangeOf, learnPairs, type IdentityPairPorts } from '../../../shared/inbox/identity-pairs';
import {
  addOptOut,
  applyOptOutKeyword,
  defaultOptInKeywords,
  removeOptOut,
  defaultOptOutKeywords,
  optOutKeywordsOf,
  type OptOutPorts,
} from '../../../shared/inbox/opt-outs';
import type { OptOutRecord } from '../../../shared/inbox/opt-out-record';
import { recordInboundMessage, type InboundMessageRecord, type RecordInboundPorts } from '../../../shared/inbox/record-inbound-message';
import { lastInboundAtOf } from '../../../shared/inbox/service-window';
import { InMemoryContactBook } from '../../support/in-memory-contact-book';
import { createInboxTestKit, senderA } from './inbox-test-kit';

const phone = '447700900123';
const bsuid = 'GB.13491208655302741918';
const keywords = optOutKeywordsOf(defaultOptOutKeywords, defaultOptInKeywords);
const T = (minute: number) => `2026-03-02T08:${String(minute).padStart(2, '0')}:00.000Z`;

function setup() {
  const kit = createInboxTestKit();
  const contactBook = new InMemoryContactBook();
  const optOutPorts: OptOutPorts = { optOuts: kit.optOuts, clock: kit.clock, contactBook };
  const pairPorts: IdentityPairPorts = { optOuts: kit.optOuts, clock: kit.clock, contactBook };
  const inboundPorts: RecordInboundPorts = { ...kit.ports, contactBook, sleep: async () => undefined };
  const keyword = (key: string, text: string, minute: number) =>
    applyOptOutKeyword(optOutPorts, keywords, { organizationId: 'org_a', phoneNumber: key, text, sentAt: new Date(T(minute)) });
  const pairUp = (minute = 30) => learnPairs(pairPorts, 'org_a', [{ phoneNumber: phone, userId: bsuid, at: T(minute) }]);
  const inbound = (record: Partial<InboundMessageRecord>) =>
    recordInboundMessage(inboundPorts, { organizationId: 'org_a', senderPhoneNumber: senderA, sentAt: new Date(T(50)), ...record });
  const onList = () => kit.optOuts.onList('org_a');
  return { ...kit, contactBook, optOutPorts, pairPorts, keyword, pairUp, inbound, onList };
}

const stopped = (key: string, source: 'keyword' | 'api', keywordAt?: string): OptOutRecord => ({
  state: 'opted-out',
  phoneNumber: key,
  source,
  createdAt: T(0),
  ...(keywordAt ? { keywordAt } : {}),
});

describe('the merge rule of a pair’s opt-outs (alignedChangeOf)', () => {
  test('a business’s or Meta’s entry under either key puts both on the list with that source', () => {
    const change = alignedChangeOf({ state: 'opted-in', phoneNumber: phone, keywordAt: T(40) }, stopped(bsuid, 'api'), T(59))!;
    expect(change(phone)({ state: 'opted-in', phoneNumber: phone, keywordAt: T(40) })).toEqual({
      state: 'opted-out',
      phoneNumber: phone,
      source: 'api',
      createdAt: T(59),
      keywordAt: T(40),
    });
  });

  test('otherwise the latest keyword by Meta’s time decides both: a later START under one key takes the other’s STOP off', () => {
    const change = alignedChangeOf(stopped(phone, 'keyword', T(10)), { state: 'opted-in', phoneNumber: bsuid, keywordAt: T(20) }, T(59))!;
    expect(change(phone)(stopped(phone, 'keyword', T(10)))).toEqual({ state: 'opted-in', phoneNumber: phone, keywordAt: T(20) });
    const stop = alignedChangeOf(undefined, stopped(bsuid, 'keyword', T(20)), T(59))!;
    expect(stop(phone)(undefined)).toMatchObject({ state: 'opted-out', phoneNumber: phone, source: 'keyword', keywordAt: T(20) });
  });

  test('nothing to align when neither key has an entry or a keyword', () => {
    expect(alignedChangeOf(undefined, undefined, T(59))).toBeUndefined();
    expect(alignedChangeOf({ state: 'opted-in', phoneNumber: phone }, undefined, T(59))).toBeUndefined();
  });
});

describe('learning pairs (learnPairs)', () => {
  test('records a new pair once: the same pair again costs no write', async () => {
    const { pairUp, contactBook } = setup();
    expect(await pairUp(30)).toBe(1);
    const writes = contactBook.writes;
    expect(await pairUp(31)).toBe(0);
    expect(contactBook.writes).toBe(writes);
  });

  test('an older pair of a number that moved to a new BSUID is not written', async () => {
    const { pairPorts, contactBook } = setup();
    await learnPairs(pairPorts, 'org_a', [{ phoneNumber: phone, userId: 'GB.new', at: T(40) }]);
    const writes = contactBook.writes;
    expect(await learnPairs(pairPorts, 'org_a', [{ phoneNumber: phone, userId: bsuid, at: T(30) }])).toBe(0);
    expect(contactBook.writes).toBe(writes);
    expect((await contactBook.pairOf('org_a', phone))?.userId).toBe('GB.new');
  });

  test('a pair written but not aligned (a crash in between) is aligned when the queue delivers the batch again (recheck), with no pair write', async () => {
    const { pairPorts, contactBook, keyword, onList } = setup();
    await keyword(bsuid, 'STOP', 10);
    contactBook.seed('org_a', { phoneNumber: phone, userId: bsuid, at: T(30) });
    expect(onList()).toEqual([bsuid]);
    const writes = contactBook.writes;
    expect(await learnPairs(pairPorts, 'org_a', [{ phoneNumber: phone, userId: bsuid, at: T(30) }], { recheck: true })).toBe(0);
    expect(onList()).toEqual([phone, bsuid]);
    expect(contactBook.writes).toBe(writes);
  });

  test('the new pairs of a batch read their opt-out records in one batched read after every pair write, and write only where a key must change', async () => {
    const { pairPorts, optOuts, contactBook, keyword, onList } = setup();
    await keyword('GB.3', 'STOP', 10);
    const pairs = [1, 2, 3].map((n) => ({ phoneNumber: `44770090012${n}`, userId: `GB.${n}`, at: T(30) }));
    const order: string[] = [];
    const recordPair = contactBook.recordPair.bind(contactBook);
    contactBook.recordPair = async (organizationId, pair) => (order.push(`pair ${pair.userId}`), recordPair(organizationId, pair));
    const recordsOf = optOuts.recordsOf.bind(optOuts);
    optOuts.recordsOf = async (organizationId, keys) => (order.push(`read ${keys.length}`), recordsOf(organizationId, keys));
    const updateOptOut = jest.spyOn(optOuts, 'updateOptOut');
    expect(await learnPairs(pairPorts, 'org_a', pairs)).toBe(3);
    expect(order).toEqual(['pair GB.1', 'pair GB.2', 'pair GB.3', 'read 6']);
    // Only the pair with a STOP under its BSUID gets its decision applied, to both keys (the BSUID's record already holds it: only the number's is written).
    expect(updateOptOut.mock.calls.map(([, key]) => key)).toEqual(['447700900123', 'GB.3']);
    expect(onList()).toEqual(['447700900123', 'GB.3']);
  });

  test('a known pair on a first delivery costs no write and no alignment (its batch, had it crashed, would come back as a recheck)', async () => {
    const { pairPorts, contactBook, keyword, onList } = setup();
    await keyword(bsuid, 'STOP', 10);
    contactBook.seed('org_a', { phoneNumber: phone, userId: bsuid, at: T(30) });
    expect(await learnPairs(pairPorts, 'org_a', [{ phoneNumber: phone, userId: bsuid, at: T(30) }])).toBe(0);
    expect(onList()).toEqual([bsuid]);
  });
});

describe('opt-outs follow the pair', () => {
  test('a STOP under the BSUID before the pair is known: the pairing puts the number on the list too (pairing reads after writing)', async () => {
    const { keyword, pairUp, onList } = setup();
    await keyword(bsuid, 'STOP', 10);
    expect(onList()).toEqual([bsuid]);
    await pairUp();
    expect(onList()).toEqual([phone, bsuid]);
  });

  test('a STOP after the pair is known is written under both keys (the change reads the pair after writing); a START takes both off', async () => {
    const { keyword, pairUp, onList } = setup();
    await pairUp();
    await keyword(bsuid, 'stop', 40);
    expect(onList()).toEqual([phone, bsuid]);
    await keyword(phone, 'START', 41);
    expect(onList()).toEqual([]);
  });

  test('a STOP and a pairing racing: the STOP’s pair read misses the pair, the pairing’s opt-out read sees the STOP', async () => {
    const { optOuts, contactBook, pairPorts, optOutPorts, onList } = setup();
    // Interleave: STOP writes its key, the pair is written, the STOP reads the pair... whichever order the reads take, both end on the list.
    const original = contactBook.pairOf.bind(contactBook);
    let racedPairing: Promise<number> | undefined;
    contactBook.pairOf = async (organizationId, key) => {
      const seen = await original(organizationId, key);
      racedPairing ??= learnPairs(pairPorts, 'org_a', [{ phoneNumber: phone, userId: bsuid, at: T(30) }]);
      return seen;
    };
    await applyOptOutKeyword(optOutPorts, keywords, { organizationId: 'org_a', phoneNumber: bsuid, text: 'STOP', sentAt: new Date(T(20)) });
    await racedPairing;
    expect(onList()).toEqual([phone, bsuid]);
    expect(optOuts.records.get('org_a')?.get(phone)).toMatchObject({ source: 'keyword', keywordAt: T(20) });
  });

  test('the API’s removal of the number removes the paired BSUID’s entry too; a business decision is not undone by a START', async () => {
    const { pairUp, keyword, onList, optOutPorts: bound } = setup();
    await pairUp();
    await addOptOut(bound, { organizationId: 'org_a', phoneNumber: phone, source: 'api' });
    expect(onList()).toEqual([phone, bsuid]);
    await keyword(bsuid, 'START', 45);
    expect(onList()).toEqual([phone, bsuid]);
    await removeOptOut(bound, 'org_a', phone);
    expect(onList()).toEqual([]);
  });

  test('a DELETE of a paired number whose own entry is gone still removes the BSUID’s entry (a retry after a crash); neither on the list: not found', async () => {
    const { pairUp, keyword, onList, optOutPorts: bound, optOuts } = setup();
    await pairUp();
    await keyword(bsuid, 'STOP', 40);
    optOuts.records.get('org_a')!.set(phone, { state: 'opted-in', phoneNumber: phone, keywordAt: T(40) });
    await removeOptOut(bound, 'org_a', phone);
    expect(onList()).toEqual([]);
    await expect(removeOptOut(bound, 'org_a', phone)).rejects.toThrow(/not/i);
  });
});

describe('inbound matching by BSUID, number and pair', () => {
  test('a BSUID-only user becomes a contact with userId and username, no number, named by the username without a profile name', async () => {
    const { inbound } = setup();
    const { contact } = await inbound({ customerUserId: bsuid, username: 'ana.r' });
    expect(contact).toMatchObject({ phoneNumber: null, userId: bsuid, username: 'ana.r', name: 'ana.r' });
    const again = await inbound({ customerUserId: bsuid, profileName: 'Ana', sentAt: new Date(T(51)) });
    expect(again.contact.contactId).toBe(contact.contactId);
  });

  test('the same user writing later with the number too: the same contact gains the number and its claim', async () => {
    const { inbound, repository } = setup();
    const first = await inbound({ customerUserId: bsuid, username: 'ana.r' });
    const second = await inbound({ customerUserId: bsuid, customerPhoneNumber: phone, sentAt: new Date(T(52)) });
    expect(second.contact).toMatchObject({ contactId: first.contact.contactId, phoneNumber: phone, userId: bsuid, username: 'ana.r' });
    expect((await repository.getContactPhoneNumberClaim('org_a', phone))?.contactId).toBe(first.contact.contactId);
  });

  test('a phone contact written before BSUIDs gains the BSUID; a later BSUID-only message finds it by that claim', async () => {
    const { inbound, services } = setup();
    const old = await services.createContact({ organizationId: 'org_a', phoneNumber: phone, name: 'Ana' });
    const both = await inbound({ customerUserId: bsuid, customerPhoneNumber: phone });
    expect(both.contact).toMatchObject({ contactId: old.contactId, phoneNumber: phone, userId: bsuid, name: 'Ana' });
    const only = await inbound({ customerUserId: bsuid, sentAt: new Date(T(55)) });
    expect(only.contact.contactId).toBe(old.contactId);
  });

  test('a message naming only the BSUID finds the number’s contact through the pair, and fills the BSUID', async () => {
    const { inbound, services, pairUp } = setup();
    const old = await services.createContact({ organizationId: 'org_a', phoneNumber: phone, name: 'Ana' });
    await pairUp();
    const { contact } = await inbound({ customerUserId: bsuid });
    expect(contact).toMatchObject({ contactId: old.contactId, phoneNumber: phone, userId: bsuid });
  });

  test('two contacts of one person made before the pair was known are not merged: each keeps its identity', async () => {
    const { inbound, services } = setup();
    const byPhone = await services.createContact({ organizationId: 'org_a', phoneNumber: phone, name: 'Ana' });
    const byBsuid = (await inbound({ customerUserId: bsuid })).contact;
    expect(byBsuid.contactId).not.toBe(byPhone.contactId);
    const both = await inbound({ customerUserId: bsuid, customerPhoneNumber: phone, sentAt: new Date(T(56)) });
    expect(both.contact).toMatchObject({ contactId: byBsuid.contactId, phoneNumber: null });
  });
});

describe('the 24-hour window over a pair', () => {
  test('a BSUID’s window includes what its number wrote, once Meta paired them', async () => {
    const { inbound, repository, contactBook, pairUp } = setup();
    await inbound({ customerPhoneNumber: phone, sentAt: new Date(T(40)) });
    const window = (key: string) => lastInboundAtOf(repository, { organizationId: 'org_a', senderPhoneNumber: senderA, customerKey: key }, contactBook);
    expect(await window(bsuid)).toBeUndefined();
    await pairUp();
    expect(await window(bsuid)).toEqual(new Date(T(40)));
    await inbound({ customerUserId: bsuid, sentAt: new Date(T(45)) });
    expect(await window(phone)).toEqual(new Date(T(45)));
  });
});
