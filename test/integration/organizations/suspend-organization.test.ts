/**
 * The kill switch through the local runtime (docs/OPERATIONS.md "Suspending an organization";
 * issue 23 item 6): suspend-organization makes every credential of the organization answer 403
 * ORGANIZATION_SUSPENDED on every surface, stops its running job within seconds (every recipient
 * not sent is listed CANCELLED and counted), keeps its scheduled job from firing; a scheduled job
 * the suspension's passes missed is cancelled by the scheduler when it comes due;
 * resume-organization lifts the 403 and the cancelled jobs stay cancelled; a campaign accepted after
 * a resume survives the earlier suspension's second pass (issue 35 item 4).
 */
import { getServices } from '../../../functions/composition';
import { runOrganizationAdminCommand } from '../../../shared/organizations/organization-admin-commands';
import type { OrganizationSuspensionPorts, SuspensionReport } from '../../../shared/organizations/organization-suspension';
import type { SurfaceName } from '../../../runtime-contract/route-manifest';
import { eventually, startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';
import { BASE, keyHeader, kitEnvironment, orderUpdate, readJob, recipients, waitForTerminal } from '../broadcast/broadcast-test-kit';
import { provisionOrganization, type ProvisionedOrganization } from '../earlier-operations/earlier-operations-kit';
import { expectSurfaceErrorShape } from '../hardening/surface-shapes';

const SUSPENDED_MESSAGE = 'This organization is suspended: its keys and tokens are refused until it is resumed';
const RECIPIENTS = 2_500;
const inSeconds = (seconds: number): string => new Date(Date.now() + seconds * 1000).toISOString();

interface Credentials {
  apiKey: string;
  mintedKey: string;
  orgToken: string;
  accessToken: string;
  v1ApiKey: string;
}

interface SurfaceCall {
  name: string;
  surface: SurfaceName;
  /** The answer while the organization is active (a valid credential: never 401 or 403). */
  activeStatus: number;
  call(): Promise<TestResponse>;
}

describe('suspend-organization and resume-organization', () => {
  let runtime: TestRuntime;
  let org: ProvisionedOrganization;
  let credentials: Credentials;

  beforeAll(async () => {
    // 100 messages a second: the 2,500-recipient job runs for 25 s, so it is under way when suspended.
    runtime = await startTestRuntime({ environment: { ...kitEnvironment, DEFAULT_MESSAGES_PER_SECOND: '100', BROADCAST_SCHEDULE_MIN_LEAD_SECONDS: '1' } });
    org = await provisionOrganization(runtime, { name: 'Suspended Ltd', walletMicros: 10_000_000, keyGeneration: true });
    const admin = getServices().tenancy.admin;
    const issue = async (kind: 'organization-token' | 'upstream-access-token' | 'v1-api-key') =>
      (await admin.issueCredential({ organizationId: org.organizationId, kind })).secret;
    const minted = await runtime.call('POST', `${BASE}/generate-key`, { body: { phoneNumber: org.phoneNumber } });
    expect(minted.status).toBe(200);
    credentials = {
      apiKey: org.apiKey,
      mintedKey: minted.body.data.apiKey,
      orgToken: await issue('organization-token'),
      accessToken: await issue('upstream-access-token'),
      v1ApiKey: await issue('v1-api-key'),
    };
  }, 90_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
  /** One call per kind of credential and surface, each answered past authentication while the organization is active. */
  const surfaceCalls = (): SurfaceCall[] => [
    {
      name: 'broadcast key (x-api-key)',
      surface: 'broadcast',
      activeStatus: 200,
      call: () => runtime.call('GET', `${BASE}/phone-numbers`, { headers: keyHeader(credentials.apiKey) }),
    },
    // The earlier routes answer a bad key 400 "User is not signed up yet"; a valid one reaches validation.
    {
      name: 'broadcast key on an earlier route',
      surface: 'broadcast',
      activeStatus: 400,
      call: () => runtime.call('POST', `${BASE}/send-single`, { headers: keyHeader(credentials.apiKey), body: {} }),
    },
    {
      name: 'key minted by generate-key',
      surface: 'broadcast',
      activeStatus: 404,
      call: () => runtime.call('GET', `${BASE}/status/pub_doesnotexist000000000000`, { headers: keyHeader(credentials.mintedKey) }),
    },
    {
      name: 'organization token',
      surface: 'organization',
      activeStatus: 404,
      call: () =>
        runtime.call('POST', '/v2/organizations/public/remove-employee-bulk', {
          headers: bearer(credentials.orgToken),
          body: { emails: ['nobody@suspended.example'] },
        }),
    },
    {
      name: 'upstream access token',
      surface: 'upstream',
      activeStatus: 200,
      call: () => runtime.call('GET', '/staging/api/v2/upstream/phone-numbers', { headers: bearer(credentials.accessToken) }),
    },
    { name: 'v1 key', surface: 'v1', activeStatus: 200, call: () => runtime.call('GET', '/v1/contacts', { headers: bearer(credentials.v1ApiKey) }) },
  ];

  /** The code where the surface's error body carries one (the organization surface's contract body has only the message). */
  const codeOf = (surface: SurfaceName, response: TestResponse): string | undefined =>
    surface === 'broadcast'
      ? response.body.data?.error?.code
      : surface === 'v1'
        ? response.body.error?.code
        : surface === 'upstream'
          ? response.body.error?.type
          : undefined;

  const sendsOf = (phoneNumberId: string) => runtime.sandbox!.acceptedMessages().filter((message) => message.phoneNumberId === phoneNumberId);
  const recipientsWith = async (jobId: string, status: string): Promise<number> => {
    let count = 0;
    let cursor: string | null = null;
    do {
      const page: TestResponse = await runtime.call(
        'GET',
        `${BASE}/broadcasts/${jobId}/recipients?status=${status}&limit=1000${cursor ? `&cursor=${cursor}` : ''}`,
        {
          headers: keyHeader(credentials.apiKey),
        },
      );
      expect(page.status).toBe(200);
      count += page.body.data.recipients.length;
      cursor = page.body.data.nextCursor;
    } while (cursor);
    return count;
  };

  it('403 ORGANIZATION_SUSPENDED on every surface; the running job stops within seconds, its unsent recipients CANCELLED and counted; the scheduled job never fires; resume lifts the 403 and the jobs stay cancelled', async () => {
    for (const surface of surfaceCalls()) {
      const response = await surface.call();
      expect([surface.name, response.status]).toEqual([surface.name, surface.activeStatus]);
    }

    const scheduledAt = inSeconds(8);
    const scheduled = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(credentials.apiKey),
      body: orderUpdate(recipients(5, { first: 9_620_000_000 }), { fromPhoneNumber: org.phoneNumber, broadcastName: 'later', scheduledAt }),
    });
    expect(scheduled.status).toBe(202);
    const running = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(credentials.apiKey),
      body: orderUpdate(recipients(RECIPIENTS, { first: 9_610_000_000 }), { fromPhoneNumber: org.phoneNumber, broadcastName: 'now' }),
    });
    expect(running.status).toBe(202);
    const runningId: string = running.body.data.jobId;
    const scheduledId: string = scheduled.body.data.jobId;
    await eventually(
      async () => sendsOf(org.phoneNumberId).length,
      (count) => count >= 100,
      30_000,
      50,
    );

    const suspendedAt = Date.now();
    const report = (await runOrganizationAdminCommand(getServices().suspensions, 'suspend-organization', {
      org: org.organizationId,
      reason: 'Integration test: fraud report',
      'settle-seconds': '2',
    })) as SuspensionReport;
    expect(report.organization).toMatchObject({ status: 'suspended', suspensionReason: 'Integration test: fraud report' });
    expect(report.cancelledJobs.map((job) => job.jobId).sort()).toEqual([runningId, scheduledId].sort());

    for (const surface of surfaceCalls()) {
      const response = await surface.call();
      expect([surface.name, response.status]).toEqual([surface.name, 403]);
      expectSurfaceErrorShape(surface.surface, response);
      expect([surface.name, surface.surface === 'v1' ? response.body.error.message : response.body.message]).toEqual([surface.name, SUSPENDED_MESSAGE]);
      const code = codeOf(surface.surface, response);
      if (surface.surface !== 'organization') expect([surface.name, code]).toEqual([surface.name, 'ORGANIZATION_SUSPENDED']);
    }

    // The running job: stopped within seconds (the workers' next job-control read), everyone accounted.
    // Settling can take longer than stopping: on a loaded machine a settle that meets a store timeout
    // is retried 10 s, 20 s, 40 s later (functions/chunk-worker/handle-chunk-record.ts); nothing is sent meanwhile.
    const final = await eventually(
      () => readJob(org.organizationId, runningId).catch(() => undefined),
      (view) => view?.status === 'CANCELLED' && view.summary.chunksDone === view.totalChunks,
      150_000,
      250,
    ).then((view) => view!);
    const sends = sendsOf(org.phoneNumberId).filter((message) => String((message.body as { to?: unknown }).to).startsWith('919610'));
    expect(sends.filter((message) => Date.parse(message.receivedAt) > suspendedAt + 3_000)).toEqual([]);
    const { sent, failed, unknown, unconfirmed, cancelled, pending } = final.summary;
    expect(pending).toBe(0);
    expect(cancelled).toBeGreaterThan(0);
    expect(sent + failed + unknown + unconfirmed + cancelled!).toBe(RECIPIENTS);
    expect(sends.length).toBeGreaterThanOrEqual(sent);
    expect(sends.length).toBeLessThanOrEqual(sent + unknown + unconfirmed);
    expect(await getServices().broadcast.broadcasts.getJob(runningId)).toMatchObject({ cancelReason: 'ORGANIZATION_SUSPENDED' });

    // The scheduled job: its time passes, nothing goes out.
    await eventually(
      async () => Date.now(),
      (now) => now > Date.parse(scheduledAt) + 2_000,
      20_000,
      250,
    );
    expect(sendsOf(org.phoneNumberId).filter((message) => String((message.body as { to?: unknown }).to).startsWith('919620'))).toEqual([]);
    expect(await readJob(org.organizationId, scheduledId)).toMatchObject({ status: 'CANCELLED', summary: { cancelled: 5, sent: 0, pending: 0 } });
    expect((await getServices().broadcast.broadcasts.getJob(scheduledId))!.firedAt).toBeUndefined();

    const resumed = await runOrganizationAdminCommand(getServices().suspensions, 'resume-organization', { org: org.organizationId });
    expect(resumed).toMatchObject({ status: 'active' });
    for (const surface of surfaceCalls()) {
      const response = await surface.call();
      expect([surface.name, response.status]).toEqual([surface.name, surface.activeStatus]);
    }
    // The jobs stay cancelled; the business reads what was never sent, listed and counted.
    const status = await runtime.call('GET', `${BASE}/status/${runningId}`, { headers: keyHeader(credentials.apiKey) });
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ status: 'CANCELLED', summary: { cancelled } });
    expect(await recipientsWith(runningId, 'CANCELLED')).toBe(cancelled);
    expect(await recipientsWith(scheduledId, 'CANCELLED')).toBe(5);
  }, 300_000);

  it('a scheduled job the suspension did not cancel is cancelled by the scheduler when it comes due, and sends nothing', async () => {
    const other = await provisionOrganization(runtime, { name: 'Raced Ltd', walletMicros: 10_000_000 });
    const scheduledAt = inSeconds(4);
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(other.apiKey),
      body: orderUpdate(recipients(3, { first: 9_630_000_000 }), { fromPhoneNumber: other.phoneNumber, broadcastName: 'raced', scheduledAt }),
    });
    expect(accepted.status).toBe(202);
    const jobId: string = accepted.body.data.jobId;
    // Only the record, as if the job had been recorded after the suspension's passes listed the jobs.
    const now = new Date().toISOString();
    await getServices().tenancy.repository.setOrganizationSuspension(other.organizationId, {
      suspension: { suspendedAt: now, reason: 'race' },
      updatedAt: now,
    });

    const job = await eventually(
      async () => getServices().broadcast.broadcasts.getJob(jobId),
      (stored) => stored?.cancelledAt !== undefined,
      20_000,
      250,
    );
    expect(job).toMatchObject({ cancelReason: 'ORGANIZATION_SUSPENDED' });
    expect(job!.firedAt).toBeUndefined();
    await eventually(
      async () => Date.now(),
      (time) => time > Date.parse(scheduledAt) + 2_000,
      10_000,
      250,
    );
    expect(sendsOf(other.phoneNumberId)).toEqual([]);
    expect(await readJob(other.organizationId, jobId)).toMatchObject({ status: 'CANCELLED', summary: { cancelled: 3, pending: 0 } });
  }, 60_000);

  it('ordered with resume: a campaign accepted after resume-organization survives the earlier suspension’s second pass, and the report says it was skipped', async () => {
    const resumedOrg = await provisionOrganization(runtime, { name: 'Resumed Ltd', walletMicros: 10_000_000 });
    const scheduled = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(resumedOrg.apiKey),
      body: orderUpdate(recipients(2, { first: 9_640_000_000 }), {
        fromPhoneNumber: resumedOrg.phoneNumber,
        broadcastName: 'before',
        scheduledAt: inSeconds(120),
      }),
    });
    expect(scheduled.status).toBe(202);
    const services = getServices().suspensions;
    let acceptedId = '';
    // Between the passes: the operator resumes and the business's next campaign is accepted.
    const ports: OrganizationSuspensionPorts = {
      tenancy: services.tenancy,
      broadcasts: services.broadcasts,
      scheduling: services.scheduling,
      clock: services.clock,
      unconfirmedAfterMs: services.unconfirmedAfterMs,
      sleep: async () => {
        await runOrganizationAdminCommand(services, 'resume-organization', { org: resumedOrg.organizationId });
        const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
          headers: keyHeader(resumedOrg.apiKey),
          body: orderUpdate(recipients(3, { first: 9_650_000_000 }), { fromPhoneNumber: resumedOrg.phoneNumber, broadcastName: 'after resume' }),
        });
        // A small broadcast answers 200 without its id (the contract's synchronous answer): found in the store.
        expect(accepted.status).toBe(200);
        const { jobs } = await services.broadcasts.listJobsOfOrganization(resumedOrg.organizationId, { limit: 10 });
        acceptedId = jobs.find((job) => job.jobId !== scheduled.body.data.jobId)!.jobId;
      },
    };

    const report = (await runOrganizationAdminCommand(ports, 'suspend-organization', {
      org: resumedOrg.organizationId,
      reason: 'race',
      'settle-seconds': '1',
    })) as SuspensionReport;

    expect(report.cancelledJobs.map((job) => job.jobId)).toEqual([scheduled.body.data.jobId]);
    expect(report.passes).toMatchObject([
      { pass: 1, cancelled: 1 },
      { pass: 2, cancelled: 0, skipped: { because: 'resumed', resumedAt: expect.any(String) } },
    ]);
    expect(report.organization).toMatchObject({ status: 'active' });
    expect(report.outcome).toMatch(/Pass 1 cancelled 1 job\. Pass 2 skipped: the organization was resumed at .+\. The organization is active now\.$/);
    const final = await waitForTerminal(resumedOrg.organizationId, acceptedId);
    expect(final).toMatchObject({ status: 'COMPLETED', summary: { sent: 3 } });
    expect((await getServices().broadcast.broadcasts.getJob(acceptedId))!.cancelledAt).toBeUndefined();
    expect(sendsOf(resumedOrg.phoneNumberId)).toHaveLength(3);
  }, 60_000);
});
