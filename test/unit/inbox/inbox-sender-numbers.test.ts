/**
 * The inbox's view of an organization's sender numbers (functions/composition/inbox.section.ts): an
 * inbound message's receiving number is one keyed read of the number's id, never another
 * organization's number.
 */
import { inboxSenderNumbers } from '../../../functions/composition/inbox.section';
import type { PhoneNumber } from '../../../shared/tenancy/tenancy-entities';

const numbers: PhoneNumber[] = [
  { organizationId: 'org_a', wabaId: 'waba_a', digits: '15550001111', phoneNumberId: 'pn_a', addedAt: '2026-01-01T00:00:00.000Z' },
  { organizationId: 'org_b', wabaId: 'waba_b', digits: '15550002222', phoneNumberId: 'pn_b', addedAt: '2026-01-01T00:00:00.000Z' },
];

function senders() {
  const calls: string[] = [];
  const repository = {
    findPhoneNumberById: async (id: string) => (calls.push(`get ${id}`), numbers.find((phone) => phone.phoneNumberId === id)),
    listPhoneNumbers: async (organizationId: string) => (
      calls.push(`list ${organizationId}`), numbers.filter((phone) => phone.organizationId === organizationId)
    ),
  };
  return { calls, numbers: inboxSenderNumbers(() => ({ repository }) as never) };
}

describe('inbox sender numbers', () => {
  it('reads the receiving number by its id, one keyed read', async () => {
    const { calls, numbers: view } = senders();
    expect(await view.senderPhoneNumberOf('org_a', 'pn_a')).toBe('15550001111');
    expect(calls).toEqual(['get pn_a']);
  });

  it("answers nothing for another organization's number or an unknown id", async () => {
    const { numbers: view } = senders();
    expect(await view.senderPhoneNumberOf('org_a', 'pn_b')).toBeUndefined();
    expect(await view.senderPhoneNumberOf('org_a', 'pn_unknown')).toBeUndefined();
  });

  it("lists the organization's own numbers", async () => {
    expect(await senders().numbers.listSenderPhoneNumbers('org_b')).toEqual(['15550002222']);
  });
});
