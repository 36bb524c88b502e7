/**
 * A small campaign launched through the API and run by the expander and the chunk workers, read
 * through GET /campaigns/{campaignId} until it is final: its totals match what the sandbox received
 * (a person in both audiences once, the excluded, filtered-out and attribute-less members counted
 * apart), and it never reads final before its expansion is done.
 */
import { getServices } from '../../../functions/composition';
import { DynamoDbAudienceStore } from '../../../shared/adapters/dynamodb/dynamodb-audience-store';
import { personOf } from '../../../shared/audiences/person-key';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, acceptedByRecipient, bodyParameters, issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

const member = (national: string, attributes: Record<string, string>, tags: string[] = []) => ({
  ...personOf({ phone: { countryCode: '91', toPhoneNumber: national } }, new Map()),
  attributes,
  tags,
  updatedAt: new Date().toISOString(),
});

describe('a campaign read while it runs', () => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it('reads SENDING or earlier until its expansion is done, then its final totals', async () => {
    const organizationId = runtime.demo.organizationId;
    const key = (await issueKey(organizationId)).secret;
    const services = getServices();
    const audiences = new DynamoDbAudienceStore(services.clients.dynamoDb, services.config.tableNames.inbox);
    const at = new Date().toISOString();
    for (const audienceId of ['aud_runA', 'aud_runB', 'aud_runX']) {
      await audiences.createAudience({ audienceId, organizationId, name: audienceId, memberCount: 0, createdAt: at, updatedAt: at });
    }
    await audiences.upsertMembers(organizationId, 'aud_runA', [
      member('9400000001', { first_name: 'Ada' }, ['vip']),
      member('9400000002', {}, ['vip']),
      member('9400000003', { first_name: 'Cy' }, ['vip']),
      member('9400000004', { first_name: 'Di' }, []),
    ]);
    await audiences.upsertMembers(organizationId, 'aud_runB', [
      member('9400000001', { first_name: 'Ada' }, ['vip']),
      member('9400000005', { first_name: 'Ed' }, ['vip']),
    ]);
    await audiences.upsertMembers(organizationId, 'aud_runX', [member('9400000005', {}, [])]);

    const created = await runtime.call('POST', `${BASE}/campaigns`, {
      headers: keyHeader(key),
      body: {
        name: 'Run',
        fromPhoneNumber: DEMO.sender1,
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        audience: { audienceIds: ['aud_runA', 'aud_runB'], excludeAudienceIds: ['aud_runX'], filter: { tags: { any: ['VIP'] } } },
        templateParams: [{ attribute: 'first_name' }, 'A-17'],
      },
    });
    expect(created.status).toBe(201);
    const { campaignId } = created.body.data;
    const launched = await runtime.call('POST', `${BASE}/campaigns/${campaignId}/launch`, { headers: keyHeader(key) });
    expect(launched.status).toBe(202);

    const seen: string[] = [];
    const final = await eventually(
      async () => {
        const view = (await runtime.call('GET', `${BASE}/campaigns/${campaignId}`, { headers: keyHeader(key) })).body.data;
        seen.push(view.state);
        return view;
      },
      (view) => ['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED', 'CANCELLED'].includes(view.state),
      60_000,
      200,
    );
    expect(seen.every((state) => ['LAUNCHING', 'SENDING', 'COMPLETED_WITH_FAILURES'].includes(state))).toBe(true);
    // Members read: 4 + 2; Ada twice (one person), Di filtered out, Ed excluded, the second without first_name skipped.
    expect(final).toMatchObject({
      state: 'COMPLETED_WITH_FAILURES',
      totals: { audience: 6, sendable: 2, queued: 0, sent: 2, failed: 0, optedOut: 0, skipped: 4, cancelled: 0 },
      skippedByReason: { DUPLICATE: 1, EXCLUDED: 1, FILTERED_OUT: 1, MISSING_ATTRIBUTE: 1, INVALID_PARAMETER: 0 },
      failuresByCode: {},
      finishedAt: expect.any(String),
    });
    const received = acceptedByRecipient(runtime);
    expect(bodyParameters(received.get('919400000001')![0]!)).toEqual(['Ada', 'A-17']);
    expect(bodyParameters(received.get('919400000003')![0]!)).toEqual(['Cy', 'A-17']);
    for (const absent of ['919400000002', '919400000004', '919400000005']) expect(received.get(absent)).toBeUndefined();
  });
});
