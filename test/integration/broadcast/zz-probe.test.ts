import { startTestRuntime } from '../../support/local-runtime';
import { BASE, issueKey, keyHeader, orderUpdate, recipients, waitForTerminal, ledgerOf, acceptedByRecipient } from './broadcast-test-kit';
it('probe', async () => {
  const runtime = await startTestRuntime({ environment: { UPSTREAM_TIMEOUT_MS: process.env.PROBE_TIMEOUT ?? '2000' } });
  try {
    for (let round = 0; round < 2; round++) {
    const key = await issueKey(runtime.demo.organizationId);
    const t = Date.now();
    const r = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: {...keyHeader(key.secret), 'Idempotency-Key': 'k'+round}, body: orderUpdate(recipients(1001, {first: 9_000_000_000 + round*10000})) });
    const job = await waitForTerminal(runtime.demo.organizationId, r.body.data.jobId);
    console.log(Date.now() - t, JSON.stringify(job.summary));
    for (const c of [0, 1]) {
      const l = await ledgerOf(r.body.data.jobId, c);
      for (const e of l.values()) if (e.status !== 'SENT') console.log(c, JSON.stringify(e), acceptedByRecipient(runtime).get(e.to)?.length);
    }
    }
  } finally { await runtime.close(); }
}, 60000);
