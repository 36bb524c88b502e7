/** createCampaign on fakes: the request schema's rules, then the sender, template, values, audiences and schedule checks. */
import * as v from 'valibot';
import { campaignRequestSchema } from '../../../shared/campaigns/campaign-request.schema';
import { createCampaign, type CreateCampaignDependencies } from '../../../shared/campaigns/create-campaign';
import { TemplateCatalog } from '../../../shared/broadcast/template-catalog';
import { fixedClock } from '../../../shared/ports/clock';
import { sequentialIdGenerator } from '../../../shared/ports/id-generator';
import { parseRequest } from '../../../shared/http/validation';
import { InMemoryCampaignStore } from '../../support/in-memory-campaign-store';
import { InMemoryMemberSource } from '../../support/in-memory-member-source';
import {
  InMemorySenderDirectory,
  InMemoryUploadedMedia,
  ORG,
  OTHER_ORG,
  SECOND_SENDER,
  SENDER,
  ScriptedCloudApi,
  template,
} from '../../support/broadcast-fakes';

const NOW = '2026-03-01T09:00:00.000Z';

function setup() {
  const clock = fixedClock(NOW);
  const upstream = new ScriptedCloudApi(clock);
  upstream.templates.set(SENDER.wabaId, [
    template(),
    template({ id: 'tpl_2', name: 'promo', category: 'MARKETING', body: 'Sale! {{1}}' }),
    template({ id: 'tpl_3', name: 'pending_one', status: 'PENDING' }),
    template({
      id: 'tpl_4',
      name: 'coupon',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
        { type: 'BODY', text: 'Use the code below.' },
        { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: 'SUMMER20' }] },
      ],
    }),
  ]);
  const campaigns = new InMemoryCampaignStore();
  const audiences = new InMemoryMemberSource();
  audiences.seed({ audienceId: 'aud_vip', organizationId: ORG, name: 'VIP', memberCount: 0, createdAt: NOW, updatedAt: NOW }, []);
  audiences.seed({ audienceId: 'aud_theirs', organizationId: OTHER_ORG, name: 'Theirs', memberCount: 0, createdAt: NOW, updatedAt: NOW }, []);
  const dependencies: CreateCampaignDependencies = {
    senders: new InMemorySenderDirectory([SENDER, SECOND_SENDER, { ...SENDER, organizationId: OTHER_ORG, phoneNumber: '447700900001' }]),
    templates: new TemplateCatalog(upstream, clock),
    audiences,
    campaigns,
    media: new InMemoryUploadedMedia(),
    clock,
    ids: sequentialIdGenerator(),
    scheduling: { minLeadSeconds: 300 },
  };
  return { campaigns, dependencies };
}

const body = (fields: Record<string, unknown> = {}) => ({
  name: 'Spring sale',
  fromPhoneNumber: SENDER.phoneNumber,
  templateName: 'order_update',
  templateLanguage: 'en_US',
  templateType: 'UTILITY',
  audience: { audienceIds: ['aud_vip', 'contacts'] },
  templateParams: [{ attribute: 'first_name', fallback: 'there' }, { attribute: 'order' }],
  ...fields,
});

const schemaMessage = (input: unknown): string | undefined => {
  try {
    parseRequest(campaignRequestSchema, input);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('the campaign request schema', () => {
  it('keeps the values as given, references included', () => {
    const parsed = v.parse(campaignRequestSchema, body({ header: { type: 'text', text: { attribute: 'city' } } }));
    expect(parsed.values).toEqual({
      templateParams: [{ attribute: 'first_name', fallback: 'there' }, { attribute: 'order' }],
      header: { type: 'text', text: { attribute: 'city' } },
    });
    expect(parsed).not.toHaveProperty('templateParams');
  });

  it('names a broken reference, a broken fallback and a broken literal by field and rule', () => {
    expect(schemaMessage(body({ templateParams: [{ attribute: 'a b' }] }))).toBe(
      'templateParams[0].attribute must be an attribute name: letters, digits and _ (1 to 64 characters)',
    );
    expect(schemaMessage(body({ templateParams: [{ attribute: 'a', extra: 1 }] }))).toBe(
      'templateParams[0] must be a reference of attribute and an optional fallback only',
    );
    expect(schemaMessage(body({ templateParams: { name: { attribute: 'name', fallback: '' } } }))).toBe('templateParams.name.fallback must not be empty');
    expect(schemaMessage(body({ buttons: [{ index: 0, type: 'copy_code', couponCode: { attribute: 'c', fallback: 'C'.repeat(21) } }] }))).toBe(
      'buttons[0].couponCode.fallback must be at most 20 characters',
    );
    expect(schemaMessage(body({ buttons: [{ index: 0, type: 'copy_code', couponCode: 'C'.repeat(21) }] }))).toBe(
      'buttons[0].couponCode must be at most 20 characters',
    );
    expect(schemaMessage(body({ header: { type: { attribute: 'kind' } } }))).toMatch(/^header\.type must be a literal value/);
    expect(schemaMessage(body({ header: { type: 'image', link: { attribute: 'photo_url' } } }))).toBeUndefined();
    expect(schemaMessage(body({ limitedTimeOffer: { expiresAt: { attribute: 'ends' } } }))).toBeUndefined();
    expect(schemaMessage(body({ templateParams: 'Ada' }))).toBe('templateParams must be array (received "Ada")');
    expect(schemaMessage(body({ audience: { audienceIds: ['people'] } }))).toBe('audience.audienceIds[0] must be an audience id (aud_…) or contacts');
    expect(schemaMessage(body({ scheduledAt: 'tomorrow' }))).toMatch(/^scheduledAt must be an ISO 8601 date and time/);
  });
});

describe('createCampaign', () => {
  const create = (
    dependencies: CreateCampaignDependencies,
    input: unknown,
    caller: { organizationId: string; credentialId?: string; scope?: never } = { organizationId: ORG, credentialId: 'cred_1' },
  ) => createCampaign(dependencies, caller, v.parse(campaignRequestSchema, input));

  it('stores a draft with the values as given, the template as found and the creating credential', async () => {
    const { campaigns, dependencies } = setup();
    const created = await create(dependencies, body());
    expect(created).toEqual({ campaignId: expect.stringMatching(/^cmp_/), name: 'Spring sale', state: 'DRAFT', createdAt: NOW });
    expect(await campaigns.getCampaign(ORG, created.campaignId)).toEqual({
      campaignId: created.campaignId,
      organizationId: ORG,
      name: 'Spring sale',
      fromPhoneNumber: SENDER.phoneNumber,
      template: { name: 'order_update', language: 'en_US', category: 'UTILITY' },
      audience: { audienceIds: ['aud_vip', 'contacts'] },
      values: { templateParams: [{ attribute: 'first_name', fallback: 'there' }, { attribute: 'order' }] },
      createdAt: NOW,
      updatedAt: NOW,
      createdByCredentialId: 'cred_1',
      attributionWindowHours: 72,
    });
  });

  it('checks the values against the template with each reference filled by its fallback or a sample', async () => {
    const { dependencies } = setup();
    await expect(create(dependencies, body({ templateParams: [{ attribute: 'first_name' }] }))).rejects.toThrow(
      'templateParams has 1 values; template order_update needs exactly 2 ({{1}}..{{2}})',
    );
    await expect(create(dependencies, body({ templateParams: { name: { attribute: 'name' } } }))).rejects.toThrow(/^templateParams must be an array/);
    const coupon = { templateName: 'coupon', templateType: 'MARKETING', templateParams: undefined };
    await expect(create(dependencies, body({ ...coupon, header: { type: 'text', text: { attribute: 'first_name' } } }))).rejects.toThrow(
      /buttons must give button 0/,
    );
    await expect(
      create(
        dependencies,
        body({
          ...coupon,
          header: { type: 'text', text: { attribute: 'first_name', fallback: 'f'.repeat(55) } },
          buttons: [{ index: 0, type: 'copy_code', couponCode: { attribute: 'code' } }],
        }),
      ),
    ).rejects.toThrow(/^header\.text must be at most 54 characters/);
    await expect(
      create(
        dependencies,
        body({
          ...coupon,
          header: { type: 'text', text: { attribute: 'first_name' } },
          buttons: [{ index: 0, type: 'copy_code', couponCode: { attribute: 'code' } }],
        }),
      ),
    ).resolves.toMatchObject({
      state: 'DRAFT',
    });
  });

  it('refuses a sender, template or audience the organization does not have', async () => {
    const { campaigns, dependencies } = setup();
    await expect(create(dependencies, body({ fromPhoneNumber: '447700900001' }))).rejects.toMatchObject({ code: 'SENDER_NOT_OWNED' });
    await expect(create(dependencies, body({ templateName: 'nope' }))).rejects.toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
    await expect(create(dependencies, body({ templateName: 'pending_one' }))).rejects.toMatchObject({ code: 'TEMPLATE_NOT_APPROVED' });
    await expect(create(dependencies, body({ templateType: 'MARKETING' }))).rejects.toMatchObject({ code: 'TEMPLATE_MISMATCH' });
    await expect(create(dependencies, body({ audience: { audienceIds: ['contacts', 'aud_theirs'] } }))).rejects.toThrow(
      'audience.audienceIds[1]: audience aud_theirs does not exist',
    );
    await expect(create(dependencies, body({ audience: { audienceIds: ['aud_vip'], excludeAudienceIds: ['aud_gone'] } }))).rejects.toMatchObject({
      code: 'CAMPAIGN_AUDIENCE_NOT_FOUND',
      field: 'audience.excludeAudienceIds[0]',
    });
    expect(campaigns.campaigns.size).toBe(0);
  });

  it('takes scheduledAt within the broadcast’s window, as given', async () => {
    const { campaigns, dependencies } = setup();
    await expect(create(dependencies, body({ scheduledAt: '2026-03-01T09:04:00Z' }))).rejects.toThrow('scheduledAt must be at least 5 minutes in the future');
    await expect(create(dependencies, body({ scheduledAt: '2026-04-06T09:00:00Z' }))).rejects.toThrow('scheduledAt must be at most 35 days in the future');
    const created = await create(dependencies, body({ scheduledAt: '2026-03-02T10:00:00+01:00' }));
    expect((await campaigns.getCampaign(ORG, created.campaignId))?.scheduledAt).toBe('2026-03-02T10:00:00+01:00');
  });

  it('follows the key’s scope: a key bound to another sender, or minted by generate-key, may not create', async () => {
    const { dependencies } = setup();
    await expect(
      createCampaign(
        dependencies,
        { organizationId: ORG, scope: { kind: 'sender', phoneNumber: SECOND_SENDER.phoneNumber } },
        v.parse(campaignRequestSchema, body()),
      ),
    ).rejects.toMatchObject({ code: 'SENDER_NOT_OWNED' });
    await expect(
      createCampaign(
        dependencies,
        { organizationId: ORG, scope: { kind: 'earlier-sender', phoneNumber: SENDER.phoneNumber } },
        v.parse(campaignRequestSchema, body()),
      ),
    ).rejects.toMatchObject({ code: 'OPERATION_OUTSIDE_KEY_SCOPE' });
  });
});
