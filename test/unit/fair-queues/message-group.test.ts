import { MAX_MESSAGE_GROUP_ID_LENGTH, messageGroupIdOf } from '../../../shared/adapters/sqs/message-group';
import { metaEventTenantOf, UNATTRIBUTED_META_EVENTS } from '../../../shared/meta-app/meta-event-tenant';

/** SQS's rule for a group id: 1-128 characters, alphanumeric or punctuation. */
const VALID = /^[A-Za-z0-9!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]{1,128}$/;

describe('messageGroupIdOf', () => {
  it('keeps an id SQS accepts as it is (organization ids, account ids, punctuation)', () => {
    for (const tenant of ['org_7Hq2xYz', '102290129340398', 'a', '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~', 'x'.repeat(MAX_MESSAGE_GROUP_ID_LENGTH)]) {
      expect(messageGroupIdOf(tenant)).toBe(tenant);
    }
  });

  it('maps anything else to a stable, valid digest: distinct tenants stay distinct', () => {
    const odd = ['', 'with space', 'naïve', 'x'.repeat(MAX_MESSAGE_GROUP_ID_LENGTH + 1), 'tab\there', '😀'];
    const groups = odd.map(messageGroupIdOf);
    for (const group of groups) expect(group).toMatch(VALID);
    for (const group of groups) expect(group).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(new Set(groups).size).toBe(odd.length);
    expect(messageGroupIdOf('with space')).toBe(groups[1]);
  });
});

describe('metaEventTenantOf', () => {
  const batch = (entry: unknown) => JSON.stringify({ object: 'whatsapp_business_account', entry });

  it('names the business account of the first entry', () => {
    expect(
      metaEventTenantOf(
        batch([
          { id: '102290129340398', changes: [] },
          { id: '999', changes: [] },
        ]),
      ),
    ).toBe('102290129340398');
  });

  it('never takes a phone number or anything but an account id from the payload', () => {
    const statuses = {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: { metadata: { display_phone_number: '15551234567', phone_number_id: '106540352242922' }, statuses: [{ recipient_id: '15557654321' }] },
        },
      ],
    };
    expect(metaEventTenantOf(batch([statuses]))).toBe('102290129340398');
  });

  it.each([
    ['not JSON', '{"entry":'],
    ['no entry', JSON.stringify({ object: 'whatsapp_business_account' })],
    ['an empty entry list', batch([])],
    ['an id that is not an account number', batch([{ id: 'abc def' }])],
    ['a numeric id of the wrong type', batch([{ id: 102290129340398 }])],
  ])('puts %s in the shared unattributed group', (_case, text) => {
    expect(metaEventTenantOf(text)).toBe(UNATTRIBUTED_META_EVENTS);
  });
});
