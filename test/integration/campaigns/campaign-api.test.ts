/**
 * POST /campaigns, GET /campaigns and GET /campaigns/{campaignId} through the local runtime:
 * drafts with attribute references and fallbacks in every kind of value, refusals naming the field
 * and the rule, newest-first paging with the state filter, the view of a draft, and isolation
 * (another organization's campaign reads as one that does not exist; a key bound to another sender
 * sees none).
 */
import { getServices } from '../../../functions/composition';
import { DynamoDbAudienceStore } from '../../../shared/adapters/dynamodb/dynamodb-audience-store';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

const ZERO_TOTALS = { audience: 0, sendable: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, unknown: 0, optedOut: 0, skipped: 0, cancelled: 0 };

describe('campaigns API', () => {
  let runtime: TestRuntime;
  let key: string;
  const ownAudience = 'aud_campaignApiOwn';
  const otherAudience = 'aud_campaignApiOther';

  const call = (method: string, path: string, body?: unknown, apiKey = key) => runtime.call(method, `${BASE}${path}`, { headers: keyHeader(apiKey), body });
  const campaignBody = (fields: Record<string, unknown> = {}) => ({
    name: 'Spring sale',
    fromPhoneNumber: DEMO.sender1,
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    audience: { audienceIds: [ownAudience, 'contacts'], filter: { tags: { any: ['vip'] }, attributes: { city: { in: ['Pune', 'Mumbai'] } } } },
    templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'A-17'],
    ...fields,
  });
  // Creating counts in the broadcast class (10 a minute per key and sender): each refusal with a fresh key.
  const refusal = async (body: unknown) => {
    const response = await call('POST', '/campaigns', body, (await issueKey(runtime.demo.organizationId)).secret);
    return [response.status, response.body.data?.error?.code, response.body.message];
  };

  beforeAll(async () => {
    runtime = await startTestRuntime({ startWorkers: false, environment: { ...kitEnvironment } });
    key = (await issueKey(runtime.demo.organizationId)).secret;
    const services = getServices();
    const audiences = new DynamoDbAudienceStore(services.clients.dynamoDb, services.config.tableNames.inbox);
    const at = new Date().toISOString();
    await audiences.createAudience({
      audienceId: ownAudience,
      organizationId: runtime.demo.organizationId,
      name: 'VIP',
      memberCount: 0,
      createdAt: at,
      updatedAt: at,
    });
    await audiences.createAudience({
      audienceId: otherAudience,
      organizationId: runtime.demo.otherOrg.organizationId,
      name: 'Theirs',
      memberCount: 0,
      createdAt: at,
      updatedAt: at,
    });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it('creates a draft with references and fallbacks, and reads it back with zero totals', async () => {
    const created = await call('POST', '/campaigns', campaignBody());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: true, status_code: 201, data: { name: 'Spring sale', state: 'DRAFT' } });
    const { campaignId, createdAt } = created.body.data;
    expect(campaignId).toMatch(/^cmp_/);

    const read = await call('GET', `/campaigns/${campaignId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      campaignId,
      name: 'Spring sale',
      state: 'DRAFT',
      fromPhoneNumber: DEMO.sender1,
      template: { name: 'order_update', language: 'en_US', category: 'UTILITY' },
      audience: { audienceIds: [ownAudience, 'contacts'], filter: { tags: { any: ['vip'] }, attributes: { city: { in: ['Pune', 'Mumbai'] } } } },
      totals: ZERO_TOTALS,
      skippedByReason: { DUPLICATE: 0, EXCLUDED: 0, FILTERED_OUT: 0, MISSING_ATTRIBUTE: 0, INVALID_PARAMETER: 0 },
      // Issue 38: the attribution window, 72 hours when not given (docs/OUTCOMES.md "Holdout and lift").
      attributionWindowHours: 72,
      failuresByCode: {},
      cost: null,
      jobId: null,
      createdAt,
      launchedAt: null,
      startedAt: null,
      finishedAt: null,
    });
  });

  it('takes references in the header, buttons and named values of rich templates', async () => {
    const coupon = await call(
      'POST',
      '/campaigns',
      campaignBody({
        templateName: 'summer_coupon',
        templateLanguage: 'en',
        templateType: 'MARKETING',
        templateParams: undefined,
        header: { type: 'text', text: { attribute: 'first_name', fallback: 'friend' } },
        buttons: [
          { index: 0, type: 'copy_code', couponCode: { attribute: 'coupon' } },
          { index: 1, type: 'quick_reply', payload: 'STOP' },
        ],
      }),
    );
    expect([coupon.status, coupon.body.data.state]).toEqual([201, 'DRAFT']);
    const named = await call(
      'POST',
      '/campaigns',
      campaignBody({ templateName: 'welcome_named', templateParams: { first_name: { attribute: 'first_name', fallback: 'there' }, store: 'Demo Retail' } }),
    );
    expect([named.status, named.body.data.state]).toEqual([201, 'DRAFT']);
    const scheduled = await call('POST', '/campaigns', campaignBody({ scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }));
    expect(scheduled.status).toBe(201);
    expect((await call('GET', `/campaigns/${scheduled.body.data.campaignId}`)).body.data).toMatchObject({ state: 'DRAFT', scheduledAt: expect.any(String) });
  });

  it('refuses what it cannot send, naming the field and the rule', async () => {
    expect(await refusal(campaignBody({ templateParams: [{ attribute: 'first-name' }, 'A-17'] }))).toEqual([
      400,
      'VALIDATION_FAILED',
      'templateParams[0].attribute must be an attribute name: letters, digits and _ (1 to 64 characters)',
    ]);
    expect(await refusal(campaignBody({ templateParams: [{ attribute: 'first_name', fallback: 'x'.repeat(1025) }, 'A-17'] }))).toEqual([
      400,
      'VALIDATION_FAILED',
      'templateParams[0].fallback must be at most 1024 characters',
    ]);
    expect(
      await refusal(
        campaignBody({
          templateName: 'summer_coupon',
          templateLanguage: 'en',
          templateType: 'MARKETING',
          templateParams: undefined,
          header: { type: 'text', text: { attribute: 'n', fallback: 'y'.repeat(61) } },
        }),
      ),
    ).toEqual([400, 'VALIDATION_FAILED', 'header.text.fallback must be at most 60 characters']);
    expect(await refusal(campaignBody({ templateParams: [{ attribute: 'first_name' }] }))).toEqual([
      400,
      'TEMPLATE_PARAMETER_COUNT',
      'templateParams has 1 values; template order_update needs exactly 2 ({{1}}..{{2}})',
    ]);
    expect(
      (await refusal(campaignBody({ templateName: 'summer_coupon', templateLanguage: 'en', templateType: 'MARKETING', templateParams: undefined })))[1],
    ).toBe('TEMPLATE_CONTENT');
    expect((await refusal(campaignBody({ header: { type: 'image', mediaId: { attribute: 'photo' } } })))[2]).toMatch(
      /^header\.mediaId must be a literal value/,
    );
    expect(await refusal(campaignBody({ audience: { audienceIds: ['contacts', 'aud_missing'] } }))).toEqual([
      400,
      'AUDIENCE_NOT_FOUND',
      'audience.audienceIds[1]: audience aud_missing does not exist',
    ]);
    expect(await refusal(campaignBody({ audience: { audienceIds: ['contacts'], excludeAudienceIds: [otherAudience] } }))).toEqual([
      400,
      'AUDIENCE_NOT_FOUND',
      `audience.excludeAudienceIds[0]: audience ${otherAudience} does not exist`,
    ]);
    expect((await refusal(campaignBody({ audience: { audienceIds: [] } })))[2]).toBe('audience.audienceIds must name at least one audience');
    expect((await refusal(campaignBody({ templateName: 'holiday_offer', templateLanguage: 'en', templateType: 'MARKETING' })))[1]).toBe(
      'TEMPLATE_NOT_APPROVED',
    );
    expect((await refusal(campaignBody({ templateName: 'no_such_template' })))[1]).toBe('TEMPLATE_NOT_FOUND');
    expect((await refusal(campaignBody({ fromPhoneNumber: runtime.demo.otherOrg.phoneNumber })))[1]).toBe('SENDER_NOT_OWNED');
    expect(await refusal(campaignBody({ scheduledAt: new Date(Date.now() + 60_000).toISOString() }))).toEqual([
      400,
      'VALIDATION_FAILED',
      'scheduledAt must be at least 5 minutes in the future',
    ]);
    expect((await refusal(campaignBody({ name: '' })))[2]).toBe('name must not be empty');
  });

  it('lists newest first, page by page, filtered by state', async () => {
    const fresh = (await issueKey(runtime.demo.organizationId)).secret;
    const made: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      made.push((await call('POST', '/campaigns', campaignBody({ name }), fresh)).body.data.campaignId);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const first = await call('GET', '/campaigns?limit=2', undefined, fresh);
    expect(first.status).toBe(200);
    expect(first.body.data.campaigns.map((campaign: { name: string }) => campaign.name)).toEqual(['three', 'two']);
    const second = await call('GET', `/campaigns?limit=2&cursor=${first.body.data.nextCursor}`, undefined, fresh);
    expect(second.body.data.campaigns.map((campaign: { campaignId: string }) => campaign.campaignId)[0]).toBe(made[0]);

    const drafts = await call('GET', '/campaigns?state=DRAFT&limit=100', undefined, fresh);
    expect(drafts.body.data.campaigns.map((campaign: { campaignId: string }) => campaign.campaignId)).toEqual(expect.arrayContaining(made));
    expect(drafts.body.data.nextCursor).toBeNull();
    expect((await call('GET', '/campaigns?state=SENDING', undefined, fresh)).body.data).toEqual({ campaigns: [], nextCursor: null });

    const badState = await call('GET', '/campaigns?state=DONE', undefined, fresh);
    expect([badState.status, badState.body.message]).toEqual([
      400,
      expect.stringMatching(/^state must be one of DRAFT, SCHEDULED, LAUNCHING, SENDING, WAITING_FOR_LIMIT, PAUSED/),
    ]);
    const otherFilter = await call('GET', `/campaigns?state=SENDING&cursor=${first.body.data.nextCursor}`, undefined, fresh);
    expect([otherFilter.status, otherFilter.body.data.error.code]).toEqual([400, 'INVALID_CURSOR']);
    const junk = await call('GET', '/campaigns?cursor=%21%21', undefined, fresh);
    expect([junk.status, junk.body.message]).toEqual([400, 'cursor must be a nextCursor returned by this endpoint']);
  });

  it('launches a draft once (202), answers the same key again, refuses another launch, and reads LAUNCHING with its job', async () => {
    const launcher = (await issueKey(runtime.demo.organizationId)).secret;
    const { campaignId } = (await call('POST', '/campaigns', campaignBody({ name: 'Launch me', audience: { audienceIds: ['contacts'] } }), launcher)).body.data;
    const launchWith = (idempotencyKey?: string, apiKey = launcher) =>
      runtime.call('POST', `${BASE}/campaigns/${campaignId}/launch`, {
        headers: { ...keyHeader(apiKey), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      });
    const foreign = await launchWith('k-1', runtime.demo.otherOrg.apiKey);
    expect([foreign.status, foreign.body.data.error.code]).toEqual([404, 'CAMPAIGN_NOT_FOUND']);

    const launched = await launchWith('k-1');
    expect([launched.status, launched.body.data]).toEqual([202, { campaignId, state: 'LAUNCHING' }]);
    const replayed = await launchWith('k-1');
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.body.data]).toEqual([202, 'true', { campaignId, state: 'LAUNCHING' }]);
    const again = await launchWith('k-2');
    expect([again.status, again.body.data.error.code]).toEqual([409, 'CAMPAIGN_ALREADY_LAUNCHED']);
    const badKey = await launchWith(' ');
    expect(badKey.status).toBe(400);

    const view = (await call('GET', `/campaigns/${campaignId}`, undefined, launcher)).body.data;
    expect(view).toMatchObject({
      state: 'LAUNCHING',
      jobId: expect.stringMatching(/^pub_/),
      launchedAt: expect.any(String),
      startedAt: expect.any(String),
      finishedAt: null,
      totals: ZERO_TOTALS,
    });
    const launching = await call('GET', '/campaigns?state=LAUNCHING', undefined, launcher);
    expect(launching.body.data.campaigns.map((campaign: { campaignId: string }) => campaign.campaignId)).toContain(campaignId);
    // The campaign's job is the campaign's: read through it, never listed among broadcasts.
    const broadcasts = await call('GET', '/broadcasts?limit=100', undefined, launcher);
    expect(broadcasts.body.data.broadcasts.map((item: { jobId: string }) => item.jobId)).not.toContain(view.jobId);
  });

  it('answers another organization’s campaign exactly as one that does not exist, and lists none of them', async () => {
    const own = (await call('POST', '/campaigns', campaignBody({ name: 'Private' }))).body.data.campaignId;
    const other = runtime.demo.otherOrg.apiKey;
    const foreign = await call('GET', `/campaigns/${own}`, undefined, other);
    const unknown = await call('GET', '/campaigns/cmp_doesNotExist0000000', undefined, other);
    expect([foreign.status, foreign.body.data.error.code]).toEqual([404, 'CAMPAIGN_NOT_FOUND']);
    expect(unknown.status).toBe(404);
    const listed = await call('GET', '/campaigns?limit=100', undefined, other);
    expect(listed.body.data.campaigns.map((campaign: { campaignId: string }) => campaign.campaignId)).not.toContain(own);

    const bound = (await issueKey(runtime.demo.organizationId, DEMO.sender2)).secret;
    expect((await call('GET', `/campaigns/${own}`, undefined, bound)).status).toBe(404);
    expect((await call('GET', '/campaigns', undefined, bound)).body.data).toEqual({ campaigns: [], nextCursor: null });
    expect((await call('GET', '/campaigns/not-an-id')).status).toBe(404);
  });
});
