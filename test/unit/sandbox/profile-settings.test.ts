/** /{phone-number-id}/whatsapp_business_profile and /{phone-number-id}/settings. */
import { defaultAbout } from '../../../sandbox/account-state';
import { useSandbox } from '../../support/use-sandbox';
import { OTHER_TOKEN, PHONE_ID, SECOND_PHONE_ID, accountA, expectGraphError, fixtureAccounts } from './sandbox-test-helpers';

const client = useSandbox({ accounts: fixtureAccounts() });

beforeEach(() => {
  client.sandbox.registerBusinessAccount(accountA());
});

const profile = (query = '') => client.graph('GET', `/${PHONE_ID}/whatsapp_business_profile${query}`);
const updateProfile = (body: Record<string, unknown>) =>
  client.graph('POST', `/${PHONE_ID}/whatsapp_business_profile`, { body: { messaging_product: 'whatsapp', ...body } });

describe('whatsapp_business_profile', () => {
  it("starts with WhatsApp's default about and reads back what was set, nested once as Meta's description says", async () => {
    expect((await profile()).body).toEqual({
      data: [{ business_profile: { messaging_product: 'whatsapp', about: defaultAbout, websites: [], vertical: 'OTHER' } }],
    });
    // Each requested field once: `about,vertical` answers both, nothing twice.
    expect((await profile('?fields=about,vertical')).body).toEqual({
      data: [{ business_profile: { messaging_product: 'whatsapp', about: defaultAbout, vertical: 'OTHER' } }],
    });
    const update = {
      about: 'Fresh flowers daily',
      address: '1 Market Street',
      description: 'Florist since 1999',
      email: 'hello@shop-a.example',
      websites: ['https://shop-a.example', 'https://instagram.com/shopa'],
      vertical: 'RETAIL',
      profile_picture_handle: '4::aW1hZ2UvanBlZw==:ARa1',
    };
    expect((await updateProfile(update)).body).toEqual({ success: true });
    const [item] = (await profile('?fields=about,address,description,email,profile_picture_url,websites,vertical')).body.data;
    const expected = {
      messaging_product: 'whatsapp',
      about: 'Fresh flowers daily',
      address: '1 Market Street',
      description: 'Florist since 1999',
      email: 'hello@shop-a.example',
      profile_picture_url: expect.stringMatching(/^https:\/\/pps\.whatsapp\.net\/.+\.jpg$/),
      websites: ['https://shop-a.example', 'https://instagram.com/shopa'],
      vertical: 'RETAIL',
    };
    expect(item).toEqual({ business_profile: expected });
    expect((await profile('?fields=about')).body.data[0]).toEqual({ business_profile: { messaging_product: 'whatsapp', about: 'Fresh flowers daily' } });
    // Profiles are per number.
    expect((await client.graph('GET', `/${SECOND_PHONE_ID}/whatsapp_business_profile?fields=about`)).body.data[0].business_profile.about).toBe(defaultAbout);
  });

  it('clears optional fields with an empty string', async () => {
    await updateProfile({ address: '1 Market Street', about: 'Hi' });
    await updateProfile({ address: '' });
    expect((await profile('?fields=address,about')).body.data[0]).toMatchObject({ business_profile: { about: 'Hi' } });
    expect((await profile('?fields=address')).body.data[0].business_profile.address).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a missing messaging_product', { messaging_product: undefined }, 'The parameter messaging_product is required.'],
    ['an empty about', { about: '' }, 'Param about must be at least 1 characters long.'],
    ['an about over 139 characters', { about: 'a'.repeat(140) }, 'Param about must be at most 139 characters long.'],
    ['an invalid email', { email: 'not-an-email' }, 'Param email must be a valid email address.'],
    ['three websites', { websites: ['https://a.example', 'https://b.example', 'https://c.example'] }, 'Param websites must have between 0 and 2 elements.'],
    ['a website without a scheme', { websites: ['shop.example'] }, 'Param websites[0] must be a URL starting with http:// or https://.'],
    ['an unknown vertical', { vertical: 'SPACE' }, 'Param vertical must be one of {OTHER, AUTO'],
  ])('rejects %s', async (_case, body, message) => {
    const request = { messaging_product: 'whatsapp', ...body };
    if ('messaging_product' in body && body.messaging_product === undefined) delete (request as Record<string, unknown>).messaging_product;
    const result = await client.graph('POST', `/${PHONE_ID}/whatsapp_business_profile`, { body: request });
    expectGraphError(result, 400, 100);
    expect(result.body.error.message).toContain(message);
  });

  it('rejects unknown fields and other accounts', async () => {
    expect((await profile('?fields=about,colour')).body.error.message).toBe(
      '(#100) Tried accessing nonexisting field (colour) on node type (WhatsAppBusinessProfile)',
    );
    expectGraphError(await client.graph('GET', `/${PHONE_ID}/whatsapp_business_profile`, { token: OTHER_TOKEN }), 401, 190);
  });
});

describe('settings', () => {
  const settings = () => client.graph('GET', `/${PHONE_ID}/settings`);
  const update = (body: Record<string, unknown>) => client.graph('POST', `/${PHONE_ID}/settings`, { body });

  it('reports defaults with the required calling and storage sections', async () => {
    expect((await settings()).body).toEqual({
      calling: { status: 'disabled', call_icon_visibility: 'visible', callback_permission_status: 'disabled', ip_addresses: { default: expect.any(Array) } },
      payload_encryption: { status: 'disabled' },
      storage_configuration: { status: 'default' },
      user_identity_change: { enabled: false },
    });
  });

  it('updates calling, identity change, payload encryption and storage', async () => {
    expect(
      (await update({ calling: { status: 'enabled', call_icon_visibility: 'hidden', video: { status: 'enabled' }, srtp_key_exchange_protocol: 'DTLS-SRTP' } }))
        .body,
    ).toEqual({ success: true });
    await update({ user_identity_change: { enabled: true } });
    await update({ payload_encryption: { status: 'enabled', client_encryption_key: 'LS0tLS1CRUdJTg==' } });
    await update({ storage_configuration: { enabled: true, region: 'IN' } });
    const read = (await settings()).body;
    expect(read.calling).toMatchObject({
      status: 'enabled',
      call_icon_visibility: 'hidden',
      video: { status: 'enabled' },
      srtp_key_exchange_protocol: 'DTLS-SRTP',
    });
    expect(read.user_identity_change).toEqual({ enabled: true });
    // Meta shows a fingerprint of the client key, never the key.
    expect(read.payload_encryption).toEqual({ status: 'enabled', client_encryption_key_fingerprint: expect.stringMatching(/^SHA256:/) });
    expect(read.storage_configuration).toEqual({ status: 'in_country_storage_enabled', data_localization_region: 'IN' });
    await update({ storage_configuration: { enabled: false } });
    expect((await settings()).body.storage_configuration).toEqual({ status: 'default' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an empty body', {}, 'At least one of calling, user_identity_change, payload_encryption, storage_configuration is required.'],
    ['calling without a status', { calling: { call_icon_visibility: 'visible' } }, "The parameter calling['status'] is required."],
    ['an unknown calling status', { calling: { status: 'maybe' } }, "Param calling['status'] must be one of {enabled, disabled}"],
    ['identity change without enabled', { user_identity_change: {} }, "The parameter user_identity_change['enabled'] is required."],
    ['storage enabled without a region', { storage_configuration: { enabled: true } }, "storage_configuration['region'] is required when storage is enabled"],
    ['a malformed region', { storage_configuration: { enabled: true, region: 'Europe' } }, 'must be a two-letter region code'],
  ])('rejects %s', async (_case, body, message) => {
    const result = await update(body);
    expectGraphError(result, 400, 100);
    expect(result.body.error.message).toContain(message);
  });
});
