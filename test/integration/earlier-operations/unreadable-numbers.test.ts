/**
 * Issue 35, item 2 through the local runtime (gateway, handler, queue, chunk worker, sandbox,
 * dynalite): earlier-send rows whose number is empty or holds a `|` are refused row by row in the
 * partial-failure answer (send-single: a 400 naming the field), stored under a safe key, and the job
 * finishes and lists (JSON and CSV answer 200); a job left stuck by the broken accept (its refused
 * recipient stored with an empty number, its chunk never done) is finished by `repair-ledger-pages`.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getServices } from '../../../functions/composition';
import { ledgerPageKey } from '../../../shared/adapters/dynamodb/ledger-page-items';
import { messagingKeys } from '../../../shared/adapters/dynamodb/messaging-table';
import { runLedgerRepairAdminCommand } from '../../../shared/broadcast/ledger-repair-admin-commands';
import { WRITTEN_NUMBER_FORM_RULE } from '../../../shared/recipients/phone-rule';
import { chunkProgressOf } from '../../support/chunk-progress';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, issueKey, keyHeader, kitEnvironment, latestJobId, ledgerOf } from '../broadcast/broadcast-test-kit';
import { PRICE_MICROS, PUBLIC_PATH, provisionOrganization, units, type ProvisionedOrganization } from './earlier-operations-kit';

jest.setTimeout(60_000);

describe('earlier sends: numbers no ledger can hold are refused per row, and the job finishes and lists', () => {
  let runtime: TestRuntime;
  let org: ProvisionedOrganization;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    org = await provisionOrganization(runtime, { name: 'Unreadable Numbers Ltd', walletMicros: 10_000_000, keyGeneration: true });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const post = (path: string, apiKey: string, body: unknown) => runtime.call('POST', `${PUBLIC_PATH}${path}`, { headers: keyHeader(apiKey), body });
  const get = (path: string, apiKey: string) => runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(apiKey) });
  const template = { templateName: 'order_update', templateLanguage: 'en_US', templateType: 'UTILITY' };
  const waitForChunkDone = (jobId: string) =>
    eventually(
      () => chunkProgressOf(getServices().broadcast.broadcasts, jobId),
      (chunks) => chunks[0]?.done === true,
      20_000,
    );

  it('send-bulk through a key minted by generate-key: the empty and | rows are refused by name, the rest sent; the job finishes and lists', async () => {
    const minted = await post('/generate-key', '', { phoneNumber: org.phoneNumber });
    expect(minted.status).toBe(200);
    const data = [
      { countryCode: '91', toPhoneNumber: '9811100001' },
      { countryCode: '', toPhoneNumber: '' },
      { countryCode: '91', toPhoneNumber: '98|11100002' },
      { countryCode: '+44', toPhoneNumber: '(0)7700 900-201' },
      { countryCode: '9|1', toPhoneNumber: '9811100003' },
    ];
    const response = await post('/send-bulk', minted.body.data.apiKey, {
      ...template,
      broadcastName: 'Unreadable numbers',
      globalTemplateParams: ['Ada', 'A-1'],
      data,
    });
    expect(response.status).toBe(200);
    expect(response.body.data.data).toMatchObject({ total_contacts: 5, failed_contacts: 3 });
    expect(response.body.data.data.failures).toEqual([
      { index: 1, failureReasonCode: 'INVALID_PHONE_NUMBER', message: 'data[1].countryCode must not be empty' },
      { index: 2, failureReasonCode: 'INVALID_PHONE_NUMBER', message: `data[2].toPhoneNumber ${WRITTEN_NUMBER_FORM_RULE}` },
      { index: 4, failureReasonCode: 'INVALID_PHONE_NUMBER', message: `data[4].countryCode ${WRITTEN_NUMBER_FORM_RULE}` },
    ]);

    const jobId = await latestJobId(org.organizationId);
    expect((await waitForChunkDone(jobId))[0]).toMatchObject({ sent: 2, failed: 3, failuresByReason: { INVALID_PHONE_NUMBER: 3 } });
    const ledger = [...(await ledgerOf(jobId, 0)).values()].sort((a, b) => a.index - b.index);
    expect(ledger.map((entry) => [entry.index, entry.to, entry.status])).toEqual([
      [0, '919811100001', 'SENT'],
      [1, 'invalid:1', 'FAILED'],
      [2, 'invalid:2', 'FAILED'],
      [3, '447700900201', 'SENT'],
      [4, 'invalid:4', 'FAILED'],
    ]);

    const key = (await issueKey(org.organizationId)).secret;
    const list = await get(`/broadcasts/${jobId}/recipients`, key);
    expect(list.status).toBe(200);
    // The list shows a sent number's digits and a refused one as written (trimmed): the row the client sent, with its reason.
    expect(list.body.data.recipients.map((row: Record<string, unknown>) => [row.countryCode, row.toPhoneNumber, row.status, row.failureReasonCode])).toEqual([
      ['91', '9811100001', 'SENT', null],
      ['', '', 'FAILED', 'INVALID_PHONE_NUMBER'],
      ['91', '98|11100002', 'FAILED', 'INVALID_PHONE_NUMBER'],
      ['44', '07700900201', 'SENT', null],
      ['9|1', '9811100003', 'FAILED', 'INVALID_PHONE_NUMBER'],
    ]);
    const csv = await get(`/broadcasts/${jobId}/recipients?format=csv`, key);
    expect(csv.status).toBe(200);
    expect((csv.body as string).split('\r\n')[2]).toMatch(/^,,FAILED,,INVALID_PHONE_NUMBER,/);
    // The refused rows are not charged: two utility messages only.
    expect(response.body.data.data.estimated_cost).toBe(units(PRICE_MICROS.utility['91']! + PRICE_MICROS.utility['44']!));
  });

  it('send-single with an empty or | number answers 400 Invalid phone number format naming the field and the rule; nothing is recorded', async () => {
    const key = (await issueKey(org.organizationId)).secret;
    const before = await latestJobId(org.organizationId);
    for (const [body, field, rule] of [
      [{ countryCode: '', toPhoneNumber: '' }, 'countryCode', 'must not be empty'],
      [{ countryCode: '91', toPhoneNumber: '98|11100009' }, 'toPhoneNumber', WRITTEN_NUMBER_FORM_RULE],
    ] as const) {
      const response = await post('/send-single', key, { ...template, templateParams: ['Ada', 'A-1'], ...body });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('Invalid phone number format');
      expect(response.body.data.error).toEqual({ code: 'REJECTED', message: 'Invalid phone number format', field, rule });
    }
    expect(await latestJobId(org.organizationId)).toBe(before);
  });

  it('a job the broken accept left stuck (an empty number on its page, its chunk never done) lists 500, then finishes and lists after repair-ledger-pages', async () => {
    const key = (await issueKey(org.organizationId)).secret;
    const response = await post('/send-bulk', key, {
      ...template,
      broadcastName: 'Stuck before repair',
      globalTemplateParams: ['Ada', 'A-1'],
      data: [
        { countryCode: '91', toPhoneNumber: '9811100011' },
        { countryCode: '91', toPhoneNumber: '' },
      ],
    });
    expect(response.status).toBe(200);
    const jobId = await latestJobId(org.organizationId);
    await waitForChunkDone(jobId);
    // Put the job back as the broken accept left it: the refused entry in the plain form with an empty number, the chunk not done.
    const { dynamoDb } = getServices().clients;
    const table = getServices().config.tableNames.messaging!;
    const refused = (await ledgerOf(jobId, 0)).get(1)!;
    await dynamoDb.send(
      new UpdateCommand({
        TableName: table,
        Key: ledgerPageKey(jobId, 0, 1),
        UpdateExpression: 'SET e1 = :v',
        ExpressionAttributeValues: { ':v': `F${Date.parse(refused.updatedAt).toString(36)}|0|||||INVALID_PHONE_NUMBER` },
      }),
    );
    await dynamoDb.send(new UpdateCommand({ TableName: table, Key: messagingKeys.chunk(jobId, 0), UpdateExpression: 'REMOVE doneAt' }));
    expect((await get(`/broadcasts/${jobId}/recipients`, key)).status).toBe(500);

    const report = await runLedgerRepairAdminCommand(getServices().ledgerRepair, 'repair-ledger-pages', { job: jobId });
    expect(report).toMatchObject({
      statusBefore: 'PROCESSING',
      status: 'COMPLETED_WITH_FAILURES',
      chunks: [{ chunkIndex: 0, rewritten: [1], unrepairable: [], done: true }],
    });
    const list = await get(`/broadcasts/${jobId}/recipients`, key);
    expect(list.status).toBe(200);
    expect(list.body.data.recipients.map((row: Record<string, unknown>) => row.status)).toEqual(['SENT', 'FAILED']);
    expect((await get(`/broadcasts/${jobId}/recipients?format=csv`, key)).status).toBe(200);
  });
});
