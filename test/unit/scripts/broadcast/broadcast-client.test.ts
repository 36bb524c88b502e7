import { BroadcastApiError, createBroadcastClient } from '../../../../client/broadcast-client';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function fakeApi(answers: Response[]) {
  const requests: Request[] = [];
  const slept: number[] = [];
  const client = createBroadcastClient({
    baseUrl: 'https://api.example/prod/api/v2/',
    apiKey: 'bk_test',
    fetch: async (request) => {
      requests.push(request);
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers');
      return answer;
    },
    sleep: async (ms) => {
      slept.push(ms);
    },
    maxAttempts: 3,
  });
  return { client, requests, slept };
}

const status = {
  jobId: 'pub_1',
  status: 'PROCESSING',
  totalRecipients: 3,
  totalChunks: 1,
  summary: { sent: 1, failed: 0, unknown: 0, pending: 2, chunksDone: 0, chunksTotal: 1 },
};

describe('createBroadcastClient', () => {
  it('sends the key and the Idempotency-Key, and takes the job id from X-Broadcast-Job-Id when the body has none', async () => {
    const { client, requests } = fakeApi([json(200, { status: true, status_code: 200, message: 'queued', data: {} }, { 'x-broadcast-job-id': 'pub_small' })]);
    const accepted = await client.sendTemplateBroadcast(
      { broadcastName: 'b', fromPhoneNumber: '1', templateName: 't', templateLanguage: 'en', templateType: 'UTILITY', data: [] },
      'key-1',
    );
    expect(accepted).toEqual({ httpStatus: 200, jobId: 'pub_small', message: 'queued' });
    expect(requests[0]!.url).toBe('https://api.example/prod/api/v2/broadcast/public/send-template-broadcast');
    expect(requests[0]!.headers.get('x-api-key')).toBe('bk_test');
    expect(requests[0]!.headers.get('idempotency-key')).toBe('key-1');
  });

  it('waits out a 429 for its Retry-After (else the body retryAfterSeconds) and tries again', async () => {
    const { client, slept, requests } = fakeApi([
      json(429, { status: false, status_code: 429, message: 'Too many requests', retryAfterSeconds: 7 }, { 'retry-after': '7' }),
      json(429, { status: false, status_code: 429, message: 'Too many requests', retryAfterSeconds: 4 }),
      json(200, { status: true, status_code: 200, message: 'ok', data: status }),
    ]);
    expect(await client.jobStatus('pub_1')).toEqual(status);
    expect(slept).toEqual([7000, 4000]);
    expect(requests.map((request) => new URL(request.url).pathname)).toEqual(Array(3).fill('/prod/api/v2/broadcast/public/status/pub_1'));
  });

  it('throws a refusal with the service message and code, without retrying it', async () => {
    const { client, requests } = fakeApi([
      json(400, {
        status: false,
        status_code: 400,
        message: 'data[0].toPhoneNumber must contain digits only',
        data: { error: { code: 'VALIDATION_FAILED', message: 'x' } },
      }),
    ]);
    const refusal = await client.listTemplates('1').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BroadcastApiError);
    expect(refusal).toMatchObject({ httpStatus: 400, code: 'VALIDATION_FAILED', message: 'GET templates: 400 data[0].toPhoneNumber must contain digits only' });
    expect(requests).toHaveLength(1);
  });

  it('gives up after maxAttempts of transient answers', async () => {
    const { client, slept } = fakeApi([json(503, { message: 'retry' }), json(503, { message: 'retry' }), json(503, { message: 'retry' })]);
    await expect(client.jobStatus('pub_1')).rejects.toMatchObject({ httpStatus: 503 });
    expect(slept).toEqual([1000, 2000]);
  });

  it('reads the recipients CSV as text', async () => {
    const { client, requests } = fakeApi([
      new Response('countryCode,toPhoneNumber\r\n91,9876543210\r\n', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } }),
    ]);
    expect(await client.recipientsCsv('pub_1')).toBe('countryCode,toPhoneNumber\r\n91,9876543210\r\n');
    expect(requests[0]!.url).toBe('https://api.example/prod/api/v2/broadcast/public/broadcasts/pub_1/recipients?format=csv');
  });
});
