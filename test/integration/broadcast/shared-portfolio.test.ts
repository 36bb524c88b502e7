/**
 * Two organizations whose business accounts belong to one business portfolio (the same `businessId`)
 * share Meta's messaging limit, but a dry run tells neither whom the other reached
 * (docs/BROADCAST.md "Messaging limits", "Organizations sharing a portfolio"): through the local
 * runtime, the sandbox answering TIER_250 for both numbers.
 */
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, orderUpdate, recipients } from './broadcast-test-kit';

const DEMO_BUSINESS = '110000000000000';
const neighbour = { wabaId: '110000000970001', phoneNumber: '15550970001', phoneNumberId: '120000000970001', accessToken: 'sandbox-token-neighbour' };

describe('a business portfolio shared by two organizations', () => {
  let runtime: TestRuntime;
  let neighbourKey: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ startWorkers: false, environment: { ...kitEnvironment } });
    runtime.sandbox!.configure({ messagingLimitByPhoneNumberId: { [DEMO.phoneNumberId1]: 'TIER_250', [neighbour.phoneNumberId]: 'TIER_250' } });
    runtime.sandbox!.registerBusinessAccount({
      wabaId: neighbour.wabaId,
      businessId: DEMO_BUSINESS,
      name: 'Neighbour',
      accessToken: neighbour.accessToken,
      phoneNumbers: [{ id: neighbour.phoneNumberId, displayPhoneNumber: neighbour.phoneNumber, verifiedName: 'Neighbour', qualityRating: 'GREEN' }],
      templates: [
        {
          id: '130000000970001',
          name: 'order_update',
          language: 'en_US',
          category: 'UTILITY',
          status: 'APPROVED',
          components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }],
        },
      ],
    });
    const tenancy = getServices().tenancy;
    const { organizationId } = await tenancy.admin.createOrganization({ name: 'Neighbour', plan: 'enterprise' });
    await tenancy.admin.connectBusinessAccount({
      organizationId,
      wabaId: neighbour.wabaId,
      businessId: DEMO_BUSINESS,
      name: 'Neighbour',
      accessToken: neighbour.accessToken,
    });
    await tenancy.admin.addPhoneNumber({ organizationId, wabaId: neighbour.wabaId, digits: neighbour.phoneNumber, phoneNumberId: neighbour.phoneNumberId });
    neighbourKey = (await issueKey(organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const dryRun = async (first: number) => {
    const answer = await runtime.call('POST', `${BASE}/send-template-broadcast?dryRun=true`, {
      headers: keyHeader(neighbourKey),
      body: orderUpdate(recipients(1, { first }), { fromPhoneNumber: neighbour.phoneNumber }),
    });
    expect(answer.status).toBe(200);
    return answer.body.data.messagingLimit;
  };

  it("newRecipients is the same whether or not the other organization messaged the number; the headroom is the portfolio's", async () => {
    const probe = 9_700_000_000;
    const before = await dryRun(probe);
    expect(before).toMatchObject({ tier: 'TIER_250', limit: 250, newRecipients: 1 });

    // Demo Retail (the other organization of the portfolio) messages the probed number and 9 more.
    const demoKey = (await issueKey(runtime.demo.organizationId)).secret;
    const sent = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(demoKey),
      body: orderUpdate(recipients(10, { first: probe })),
    });
    expect(sent.status).toBe(200);

    const after = await dryRun(probe);
    expect(after.newRecipients).toBe(1);
    expect(after.usedLast24h).toBe(before.usedLast24h + 10);
    expect(after.headroom).toBe(before.headroom - 10);
  });
});
