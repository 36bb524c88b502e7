/**
 * An audience's members: upsert and remove by person (shared/audiences/person-key.ts), list page by
 * page, as JSON or CSV (docs/CAMPAIGNS.md "Members and people"). Rows are judged one by one
 * (member-rows.schema.ts): an invalid row is answered with its index, field and rule and nothing is
 * stored for it; the valid rows are written.
 */
import { sha256Base64Url } from '../crypto/hashing';
import { csvField } from '../csv/csv-field';
import type { AudienceMember } from './audience';
import { decodeCursor, encodeCursor } from './audience-cursor';
import { requireAudience, requireAudienceScope, requireWritableAudience, type AudienceCaller, type AudiencePorts } from './audience-use-cases';
import { judgeRows, memberKeyRowSchema, memberRowSchema, type InvalidRow, type JudgedRow } from './member-rows.schema';
import { personOf, unpairedUserIds } from './person-key';
import type { MemberUpsert } from './ports';

/** A claim outlives the API Gateway integration timeout (29 s), then lapses so a crashed request frees its key. */
const IN_PROGRESS_TIMEOUT_MS = 30_000;

export interface UpsertMembersResult {
  added: number;
  updated: number;
  invalid: InvalidRow[];
}

/** The valid rows as people: the last row of a person wins (one write, counted once). */
async function peopleOf(ports: Pick<AudiencePorts, 'contactBook'>, organizationId: string, rows: readonly JudgedRow[]) {
  const pairs = await ports.contactBook.pairsOf(organizationId, unpairedUserIds(rows.map((row) => row.identity)));
  const byPerson = new Map<string, { person: ReturnType<typeof personOf>; row: JudgedRow }>();
  for (const row of rows) {
    const person = personOf(row.identity, pairs);
    byPerson.delete(person.personKey);
    byPerson.set(person.personKey, { person, row });
  }
  return [...byPerson.values()];
}

async function writeRows(ports: AudiencePorts, caller: AudienceCaller, audienceId: string, rows: readonly unknown[]): Promise<UpsertMembersResult> {
  await requireAudience(ports, caller, audienceId);
  const { valid, invalid } = judgeRows(memberRowSchema, rows);
  const updatedAt = ports.clock.now().toISOString();
  const members = (await peopleOf(ports, caller.organizationId, valid)).map(
    ({ person, row }): MemberUpsert => ({ ...person, updatedAt, ...(row.attributes && { attributes: row.attributes }), ...(row.tags && { tags: row.tags }) }),
  );
  const { added, updated } = members.length === 0 ? { added: 0, updated: 0 } : await ports.audiences.upsertMembers(caller.organizationId, audienceId, members);
  return { added, updated, invalid };
}

/**
 * Upserts up to 10,000 rows by person: the fields a row gives replace the stored ones, absent ones
 * are kept. With an Idempotency-Key a retry gets the first answer (`replayed`) and writes nothing.
 *
 * @example
 * await upsertMembers(ports, caller, 'aud_1', [{ countryCode: '91', toPhoneNumber: '9876543210', tags: ['vip'] }], { idempotencyKey: 'import-1' });
 * // { added: 1, updated: 0, invalid: [] }
 */
export async function upsertMembers(
  ports: AudiencePorts,
  caller: AudienceCaller,
  audienceId: string,
  rows: readonly unknown[],
  options: { idempotencyKey?: string },
): Promise<UpsertMembersResult & { replayed?: true }> {
  requireAudienceScope(caller);
  requireWritableAudience(audienceId, 'changed');
  if (options.idempotencyKey === undefined) return writeRows(ports, caller, audienceId, rows);
  let writtenNow = false;
  const result = await ports.idempotency.run(
    `audience-members#${caller.organizationId}#${audienceId}#${options.idempotencyKey}`,
    sha256Base64Url(JSON.stringify(rows)),
    () => {
      writtenNow = true;
      return writeRows(ports, caller, audienceId, rows);
    },
    { inProgressTimeoutMs: IN_PROGRESS_TIMEOUT_MS },
  );
  return writtenNow ? result : { ...result, replayed: true };
}

/** Removes people (by number or BSUID, matched as an upsert keys them); `removed` counts the members that were there. */
export async function removeMembers(ports: AudiencePorts, caller: AudienceCaller, audienceId: string, rows: readonly unknown[]) {
  requireAudienceScope(caller);
  requireWritableAudience(audienceId, 'changed');
  await requireAudience(ports, caller, audienceId);
  const { valid, invalid } = judgeRows(memberKeyRowSchema, rows);
  const people = await peopleOf(ports, caller.organizationId, valid);
  const keys = people.map(({ person }) => person.personKey);
  const { removed } = keys.length === 0 ? { removed: 0 } : await ports.audiences.removeMembers(caller.organizationId, audienceId, keys);
  return { removed, invalid };
}

export interface MemberRow {
  countryCode: string;
  toPhoneNumber: string;
  userId?: string;
  attributes: AudienceMember['attributes'];
  tags: string[];
  updatedAt: string;
}

const rowOf = ({ countryCode, toPhoneNumber, userId, attributes, tags, updatedAt }: AudienceMember): MemberRow => ({
  countryCode,
  toPhoneNumber,
  ...(userId === undefined ? {} : { userId }),
  attributes,
  tags,
  updatedAt,
});

/** One page of an audience's members in person-key order (`contacts`: contact order). */
export async function listMembers(ports: AudiencePorts, caller: AudienceCaller, audienceId: string, query: { limit: number; cursor?: string }) {
  requireAudienceScope(caller);
  await requireAudience(ports, caller, audienceId);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, audienceId);
  const page = await ports.members.readMembers(caller.organizationId, audienceId, { limit: query.limit, ...(after ? { cursor: after } : {}) });
  return { members: page.members.map(rowOf), nextCursor: page.nextCursor === undefined ? null : encodeCursor(audienceId, page.nextCursor) };
}

/**
 * A page of members as CSV: `countryCode,toPhoneNumber,userId,tags,<attribute names of the page, sorted>`,
 * tags joined by `|`.
 *
 * @example
 * membersCsv([{ countryCode: '91', toPhoneNumber: '9876543210', attributes: { city: 'Pune' }, tags: ['vip', 'new'], updatedAt: 'T' }]);
 * // 'countryCode,toPhoneNumber,userId,tags,city\r\n91,9876543210,,vip|new,Pune\r\n'
 */
export function membersCsv(rows: readonly MemberRow[]): string {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row.attributes)))].sort();
  const lines = [['countryCode', 'toPhoneNumber', 'userId', 'tags', ...names].join(',')];
  for (const row of rows) {
    const attributes = names.map((name) => (row.attributes[name] === undefined ? '' : csvField(String(row.attributes[name]))));
    lines.push([csvField(row.countryCode), csvField(row.toPhoneNumber), csvField(row.userId), csvField(row.tags.join('|')), ...attributes].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
