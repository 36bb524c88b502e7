/** What the campaign integration tests share: audiences created and filled through the API. */
import type { TestResponse } from '../../support/local-runtime';

type Call = (method: string, path: string, body?: unknown) => Promise<TestResponse>;

/**
 * Creates an audience and adds the members, in requests of 250, each retried on a 503 as the contract
 * says (an upsert by person is safe to repeat): the API takes 10,000 a request, but a loaded machine's
 * local store answers slower than its clients' 2 s timeout.
 */
export async function audienceOf(call: Call, name: string, members: readonly unknown[]): Promise<string> {
  const created = await call('POST', '/audiences', { name });
  expect(created.status).toBe(201);
  const audienceId = created.body.data.audienceId as string;
  for (let start = 0; start < members.length; start += 250) {
    const page = members.slice(start, start + 250);
    let added = await call('POST', `/audiences/${audienceId}/members`, { members: page });
    for (let attempt = 1; added.status === 503 && attempt < 6; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      added = await call('POST', `/audiences/${audienceId}/members`, { members: page });
    }
    expect([added.status, added.body.data.invalid]).toEqual([200, []]);
  }
  return audienceId;
}
