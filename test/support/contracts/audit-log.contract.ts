/**
 * What every AuditLog does, as observed through the port (fake InMemoryAuditLog, adapter
 * DynamoDbAuditLog): one entry per request, never another request's replaced; newest first, paged
 * by an opaque cursor, filtered by actor and action; one organization's entries only; entries older
 * than 400 days read as gone.
 */
import type { AuditEntry } from '../../../shared/audit/audit-entry';
import { InvalidAuditCursorError } from '../../../shared/audit/errors';
import type { AuditLog, AuditQuery } from '../../../shared/audit/ports';
import { fixedClock, type Clock } from '../../../shared/ports/clock';

let sequence = 0;
const freshOrganization = () => `org_audit_${process.pid}_${Date.now().toString(36)}_${(sequence += 1)}`;

const admin = { kind: 'person', personId: 'psn_aaaaaaaaaaaaaaaaaaaa', email: 'ada@example.com', role: 'admin' } as const;
const key = { kind: 'credential', credentialId: 'cred_key_1', credentialKind: 'broadcast-api-key' } as const;

function entryAt(organizationId: string, at: string, overrides: Partial<Omit<AuditEntry, 'entryId'>> = {}): Omit<AuditEntry, 'entryId'> {
  return {
    organizationId,
    at,
    actor: key,
    action: 'cancelCampaign',
    method: 'POST',
    path: '/prod/api/v2/broadcast/public/campaigns/cmp_1/cancel',
    target: { campaignId: 'cmp_1' },
    sourceIp: '203.0.113.7',
    statusCode: 200,
    outcome: 'succeeded',
    requestId: `req-${at}-${(sequence += 1)}`,
    ...overrides,
  };
}

/** Every entry of a listing, following nextCursor to the end (a page may be empty before the end). */
async function listAll(log: AuditLog, query: Omit<AuditQuery, 'cursor'>): Promise<AuditEntry[]> {
  const all: AuditEntry[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 50; pages += 1) {
    const page = await log.list({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    expect(page.entries.length).toBeLessThanOrEqual(query.limit);
    all.push(...page.entries);
    if (page.nextCursor === null) return all;
    cursor = page.nextCursor;
  }
  throw new Error('listing did not end');
}

const second = (index: number) => new Date(Date.UTC(2026, 11, 2, 9, 0, index)).toISOString();

export function describeAuditLogContract(name: string, makeLog: (clock: Clock) => AuditLog | Promise<AuditLog>): void {
  describe(`AuditLog contract: ${name}`, () => {
    const clock = fixedClock('2026-12-02T10:00:00.000Z');
    let log: AuditLog;
    beforeAll(async () => {
      log = await makeLog(clock);
    });

    it('records an entry with a time-ordered id and lists it as recorded', async () => {
      const organizationId = freshOrganization();
      const recorded = await log.record(entryAt(organizationId, second(1), { actor: admin, errorCode: undefined }));
      expect(recorded.entryId).toMatch(/^aud_20261202T090001000Z_[0-9a-f]{16}$/);
      const page = await log.list({ organizationId, limit: 10 });
      expect(page).toEqual({ entries: [recorded], nextCursor: null });
    });

    it('keeps one entry per request: recording the same request again changes nothing', async () => {
      const organizationId = freshOrganization();
      const fields = entryAt(organizationId, second(2), { statusCode: 409, outcome: 'refused', errorCode: 'CAMPAIGN_NOT_CANCELLABLE' });
      const first = await log.record(fields);
      const again = await log.record(fields);
      expect(again.entryId).toBe(first.entryId);
      expect((await log.list({ organizationId, limit: 10 })).entries).toEqual([first]);
    });

    it('never replaces another request of the same instant', async () => {
      const organizationId = freshOrganization();
      const [left, right] = await Promise.all([log.record(entryAt(organizationId, second(3))), log.record(entryAt(organizationId, second(3)))]);
      expect(left.entryId).not.toBe(right.entryId);
      expect((await log.list({ organizationId, limit: 10 })).entries.map((entry) => entry.requestId).sort()).toEqual([left.requestId, right.requestId].sort());
    });

    it('lists newest first, page by page, each entry once', async () => {
      const organizationId = freshOrganization();
      const recorded: AuditEntry[] = [];
      for (const index of [5, 1, 4, 2, 3]) recorded.push(await log.record(entryAt(organizationId, second(index))));
      const all = await listAll(log, { organizationId, limit: 2 });
      expect(all.map((entry) => entry.at)).toEqual([5, 4, 3, 2, 1].map(second));
      const first = await log.list({ organizationId, limit: 2 });
      expect(first.entries).toHaveLength(2);
      expect(first.nextCursor).toEqual(expect.any(String));
    });

    it('filters by actor (a person id or a credential id), by action, and by both', async () => {
      const organizationId = freshOrganization();
      await log.record(entryAt(organizationId, second(1), { actor: admin, action: 'createAudience' }));
      await log.record(entryAt(organizationId, second(2), { actor: key, action: 'createAudience' }));
      await log.record(entryAt(organizationId, second(3), { actor: admin, action: 'launchCampaign' }));
      await log.record(entryAt(organizationId, second(4), { actor: admin, action: 'createAudience' }));
      const of = async (query: Partial<AuditQuery>) => (await listAll(log, { organizationId, limit: 1, ...query })).map((entry) => entry.at);
      expect(await of({ actorId: admin.personId })).toEqual([4, 3, 1].map(second));
      expect(await of({ actorId: key.credentialId })).toEqual([second(2)]);
      expect(await of({ action: 'createAudience' })).toEqual([4, 2, 1].map(second));
      expect(await of({ actorId: admin.personId, action: 'createAudience' })).toEqual([4, 1].map(second));
      expect(await of({ actorId: 'psn_nobody' })).toEqual([]);
    });

    it("shows one organization's entries only, whatever the filter", async () => {
      const [mine, theirs] = [freshOrganization(), freshOrganization()];
      await log.record(entryAt(theirs, second(1), { actor: admin }));
      expect((await log.list({ organizationId: mine, limit: 10 })).entries).toEqual([]);
      expect((await log.list({ organizationId: mine, limit: 10, actorId: admin.personId })).entries).toEqual([]);
      expect((await log.list({ organizationId: mine, limit: 10, action: 'cancelCampaign' })).entries).toEqual([]);
    });

    it('reads an entry older than 400 days as gone', async () => {
      const organizationId = freshOrganization();
      await log.record(entryAt(organizationId, '2025-10-27T09:00:00.000Z'));
      const kept = await log.record(entryAt(organizationId, '2025-10-29T09:00:00.000Z'));
      expect((await log.list({ organizationId, limit: 10 })).entries).toEqual([kept]);
    });

    it('refuses a cursor it did not issue', async () => {
      const organizationId = freshOrganization();
      await expect(log.list({ organizationId, limit: 10, cursor: 'bm90LWEtY3Vyc29y' })).rejects.toBeInstanceOf(InvalidAuditCursorError);
      await expect(log.list({ organizationId, limit: 10, cursor: Buffer.from('{"e":"aud_x"}').toString('base64url') })).rejects.toBeInstanceOf(
        InvalidAuditCursorError,
      );
    });
  });
}
