/**
 * Identity changes and marketing preferences (issue 35 item 8; docs/ORGANIZATIONS-AND-V1.md
 * "Identity changes" and "Opt-outs"): a change of number carries the opt-out and the 24-hour window
 * to the new ids and re-keys the contact; a `user_preferences` stop lists both identifiers of a
 * paired user as `user-preference`, a resume lifts it (and a 131050 entry), never the business's.
 */
import { applyIdentityChange, type UserIds } from '../../../shared/inbox/identity-change';
import { learnPairs } from '../../../shared/inbox/identity-pairs';
import {
  addOptOut,
  applyMarketingPreference,
  applyOptOutKeyword,
  defaultOptInKeywords,
  defaultOptOutKeywords,
  optOutKeywordsOf,
  type OptOutPorts,
} from '../../../shared/inbox/opt-outs';
import { withPreferenceApplied } from '../../../shared/inbox/opt-out-record';
import { recordInboundMessage, type RecordInboundPorts } from '../../../shared/inbox/record-inbound-message';
import { lastInboundAtOf } from '../../../shared/inbox/service-window';
import { InMemoryContactBook } from '../../support/in-memory-contact-book';
import { createInboxTestKit, senderA } from './inbox-test-kit';

const oldPhone = '447700900123';
const oldId = 'GB.1001';
const newPhone = '447700900999';
const newId = 'GB.2002';
const T = (minute: number) => `2026-11-02T08:${String(minute).padStart(2, '0')}:00.000Z`;
const keywords = optOutKeywordsOf(defaultOptOutKeywords, defaultOptInKeywords);

function setup() {
  const kit = createInboxTestKit();
  const contactBook = new InMemoryContactBook();
  const optOutPorts: OptOutPorts = { optOuts: kit.optOuts, clock: kit.clock, contactBook };
  const inboundPorts: RecordInboundPorts = { ...kit.ports, contactBook, sleep: async () => undefined };
  const change = (previous: UserIds = { userId: oldId, phoneNumber: oldPhone }) =>
    applyIdentityChange({ ...optOutPorts, inbox: kit.ports.inbox }, { organizationId: 'org_a', previous, current: { userId: newId, phoneNumber: newPhone } });
  return { ...kit, contactBook, optOutPorts, inboundPorts, change, onList: () => kit.optOuts.onList('org_a') };
}

describe('a change of number (user_changed_number / user_changed_user_id)', () => {
  test('a keyword STOP under the old ids keeps the new ids off the list; the old entries stay', async () => {
    const { optOutPorts, change, onList } = setup();
    await applyOptOutKeyword(optOutPorts, keywords, { organizationId: 'org_a', phoneNumber: oldId, text: 'STOP', sentAt: new Date(T(1)) });
    await expect(change()).resolves.toEqual({ optedOut: true });
    expect(onList()).toEqual([newId, oldId, newPhone].sort());
    // A START the user sends later under the new ids is newer by Meta's time: it lifts the carried STOP.
    await applyOptOutKeyword(optOutPorts, keywords, { organizationId: 'org_a', phoneNumber: newId, text: 'START', sentAt: new Date(T(5)) });
    expect(onList()).not.toContain(newId);
  });

  test('an API opt-out of the number Meta paired with the old BSUID carries too (with its source); nothing on the list carries nothing', async () => {
    const { optOutPorts, contactBook, change, optOuts } = setup();
    contactBook.seed('org_a', { phoneNumber: oldPhone, userId: oldId, at: T(0) });
    await addOptOut({ optOuts: optOutPorts.optOuts, clock: optOutPorts.clock }, { organizationId: 'org_a', phoneNumber: oldPhone, source: 'api' });
    await change({ userId: oldId });
    expect((await optOuts.findSuppressed('org_a', [newId, newPhone])).size).toBe(2);
    expect((await optOuts.listOptOuts('org_a', { offset: 0, limit: 10 })).items).toContainEqual(expect.objectContaining({ phoneNumber: newId, source: 'api' }));

    const fresh = setup();
    await expect(fresh.change()).resolves.toEqual({ optedOut: false });
    expect(fresh.onList()).toEqual([]);
  });

  test('the contact is re-keyed: the new ids find it, and with it the 24-hour window', async () => {
    const { inboundPorts, change, ports } = setup();
    const { contact } = await recordInboundMessage(inboundPorts, {
      organizationId: 'org_a',
      senderPhoneNumber: senderA,
      customerPhoneNumber: oldPhone,
      customerUserId: oldId,
      sentAt: new Date(T(10)),
    });
    expect(await lastInboundAtOf(ports.inbox, { organizationId: 'org_a', senderPhoneNumber: senderA, customerKey: newId })).toBeUndefined();
    await change();
    await change(); // a redelivery: same end
    expect(await ports.inbox.getContact('org_a', contact.contactId)).toMatchObject({ phoneNumber: newPhone, userId: newId });
    for (const customerKey of [newId, newPhone]) {
      expect(await lastInboundAtOf(ports.inbox, { organizationId: 'org_a', senderPhoneNumber: senderA, customerKey })).toEqual(new Date(T(10)));
    }
  });
});

describe('marketing preferences (user_preferences)', () => {
  test('a stop lists both identifiers of a paired user as user-preference; a resume lifts both', async () => {
    const { optOutPorts, contactBook, optOuts, onList } = setup();
    await learnPairs({ ...optOutPorts, contactBook }, 'org_a', [{ phoneNumber: oldPhone, userId: oldId, at: T(0) }]);
    await applyMarketingPreference(optOutPorts, { organizationId: 'org_a', keys: [oldId], value: 'stop', at: new Date(T(2)) });
    expect(onList()).toEqual([oldPhone, oldId].sort());
    expect((await optOuts.listOptOuts('org_a', { offset: 0, limit: 10 })).items.map((item) => item.source)).toEqual(['user-preference', 'user-preference']);
    // An older resume arriving late changes nothing; a newer one lifts both.
    await applyMarketingPreference(optOutPorts, { organizationId: 'org_a', keys: [oldId], value: 'resume', at: new Date(T(1)) });
    expect(onList()).toHaveLength(2);
    await applyMarketingPreference(optOutPorts, { organizationId: 'org_a', keys: [oldId, oldPhone], value: 'resume', at: new Date(T(3)) });
    expect(onList()).toEqual([]);
  });

  test('a resume lifts a user-preference or 131050 entry, never the business’s or the customer’s keyword', () => {
    const at = T(9);
    const entry = (source: 'api' | 'operator' | 'keyword' | 'webhook-131050' | 'user-preference') => ({
      state: 'opted-out' as const,
      phoneNumber: oldId,
      source,
      createdAt: T(0),
    });
    for (const source of ['api', 'operator', 'keyword'] as const) {
      expect(withPreferenceApplied(entry(source), { value: 'resume', phoneNumber: oldId, at, now: at })).toEqual({ ...entry(source), preferenceAt: at });
    }
    for (const source of ['webhook-131050', 'user-preference'] as const) {
      expect(withPreferenceApplied(entry(source), { value: 'resume', phoneNumber: oldId, at, now: at })).toEqual({
        state: 'opted-in',
        phoneNumber: oldId,
        preferenceAt: at,
      });
    }
    // A stop over a keyword entry takes its source (a START then leaves it); over the business's, keeps theirs.
    expect(withPreferenceApplied(entry('keyword'), { value: 'stop', phoneNumber: oldId, at, now: at })).toMatchObject({
      source: 'user-preference',
      preferenceAt: at,
    });
    expect(withPreferenceApplied(entry('api'), { value: 'stop', phoneNumber: oldId, at, now: at })).toMatchObject({ source: 'api', preferenceAt: at });
  });
});
