/**
 * One call of the Cloud API sandbox's control API (`/_sandbox/...`, sandbox/README.md) over HTTP,
 * as integration suites set faults, users and webhooks of a running local runtime.
 *
 * @example
 * await callSandbox(runtime.sandboxUrl, 'POST', '/webhooks', { readRate: 0 }); // { status: 200, body: { … } }
 */
export async function callSandbox(sandboxUrl: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${sandboxUrl}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}
