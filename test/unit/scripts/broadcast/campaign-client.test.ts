/**
 * The audiences and campaigns client's retries: a keyed write is retried after a 503 (the key makes
 * it safe), a create without a key is not (it may have acted), both wait out a 429.
 */
import { BroadcastApiError } from '../../../../client/retrying-call';
import { createCampaignClient } from '../../../../client/campaign-client';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function fakeApi(answers: Response[]) {
  const requests: string[] = [];
  const slept: number[] = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    requests.push(`${init?.method} ${String(input)} ${JSON.stringify(init?.headers)}`);
    const answer = answers.shift();
    if (!answer) throw new Error('no more answers');
    return answer;
  });
  const client = createCampaignClient({
    baseUrl: 'https://api.example/prod/api/v2',
    apiKey: 'bk_test',
    sleep: async (ms) => void slept.push(ms),
    maxAttempts: 3,
  });
  return { client, requests, slept };
}

afterEach(() => jest.restoreAllMocks());

describe('createCampaignClient', () => {
  it('retries a page of members after a 503 with the same Idempotency-Key and reads Idempotent-Replayed', async () => {
    const { client, requests, slept } = fakeApi([
      json(503, { message: 'Service Unavailable' }),
      json(200, { statusCode: 200, message: 'ok', data: { added: 0, updated: 2, invalid: [] } }, { 'idempotent-replayed': 'true' }),
    ]);
    const answer = await client.addMembers('aud_1', [{ userId: 'US.1' }, { userId: 'US.2' }], 'aud-import-x-page-1');
    expect(answer).toEqual({ added: 0, updated: 2, invalid: [], replayed: true });
    expect(slept).toEqual([1000]);
    expect(requests).toHaveLength(2);
    expect(requests[1]).toBe(
      'POST https://api.example/prod/api/v2/broadcast/public/audiences/aud_1/members {"x-api-key":"bk_test","content-type":"application/json","Idempotency-Key":"aud-import-x-page-1"}',
    );
  });

  it('does not repeat a create after a 503 (it may have created), but waits out a 429', async () => {
    const refused = fakeApi([json(503, { message: 'Service Unavailable' })]);
    await expect(refused.client.createAudience('VIP')).rejects.toThrow(new BroadcastApiError('POST audiences: 503 Service Unavailable', 503));
    expect(refused.requests).toHaveLength(1);
    jest.restoreAllMocks();
    const limited = fakeApi([
      json(429, { message: 'Too Many Requests' }, { 'retry-after': '3' }),
      json(201, { data: { audienceId: 'aud_1', name: 'VIP', memberCount: 0, createdAt: 'now' } }),
    ]);
    expect(await limited.client.createAudience('VIP')).toMatchObject({ audienceId: 'aud_1' });
    expect(limited.slept).toEqual([3000]);
  });
});
