/**
 * `npx wa-broadcast audience import people.csv --name "VIP customers"` (or `--audience <id>`): the
 * file streamed in pages of 10,000 members to `POST /audiences/{id}/members`, each page with an
 * Idempotency-Key derived from the audience, the page's position and its members, so running the
 * same file again is answered from the first run and writes nothing. Lines that cannot be members
 * (the CLI's own reading, then the API's `invalid`) are named with their line number at the end.
 */
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { Presets, SingleBar } from 'cli-progress';
import type { AudienceSummary, CampaignClient, MemberInput } from '../../client/campaign-client';
import { AUDIENCE_LIMITS } from '../../shared/audiences/audience';
import { audienceRows, type AudienceRow } from './audience-csv';
import type { CliOutput } from './cli-output';
import { AudienceFileError, CliUsageError } from './errors';

export interface ImportOptions {
  filePath: string;
  /** Add to this audience… */
  audienceId?: string;
  /** …or to the audience of this name (created when there is none). */
  name?: string;
  /** Members per request (the API's most, 10,000, unless a test says otherwise). */
  pageSize?: number;
}

export interface ImportOutcome {
  audienceId: string;
  created: boolean;
  pages: number;
  /** Pages the service answered from an earlier run's key: nothing written for them now. */
  replayedPages: number;
  members: number;
  added: number;
  updated: number;
  /** `line 7: …`, by line. */
  badLines: string[];
  memberCount: number;
}

/**
 * The Idempotency-Key of one page: the same audience, page and members give the same key, in any run.
 *
 * @example
 * pageKey('aud_1', 1, [{ countryCode: '91', toPhoneNumber: '9876543210' }]); // 'aud-import-<40 hex>-page-1'
 */
export function pageKey(audienceId: string, page: number, members: readonly MemberInput[]): string {
  const digest = createHash('sha256')
    .update(JSON.stringify({ v: 1, audienceId, page, members }))
    .digest('hex');
  return `aud-import-${digest.slice(0, 40)}-page-${page}`;
}

/** The audience by id, else the one named `name` (the first listed), else a new one of that name. */
async function resolveAudience(client: CampaignClient, options: ImportOptions): Promise<{ audience: AudienceSummary; created: boolean }> {
  if (options.audienceId) return { audience: await client.audience(options.audienceId), created: false };
  const name = options.name;
  if (!name) throw new CliUsageError('audience import needs either --name <name> or --audience <audienceId>');
  const named: AudienceSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listAudiences({ limit: '100', ...(cursor ? { cursor } : {}) });
    named.push(...page.audiences.filter((audience) => audience.name === name));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  if (named.length > 1) {
    throw new CliUsageError(
      `${named.length} audiences are named "${name}" (${named.map((audience) => audience.audienceId).join(', ')}): choose one with --audience <id>`,
    );
  }
  if (named.length === 1) return { audience: named[0]!, created: false };
  return { audience: await client.createAudience(name), created: true };
}

interface Tally {
  rows: number;
  pages: number;
  replayedPages: number;
  members: number;
  added: number;
  updated: number;
  bad: Array<{ line: number; text: string }>;
}

/** Sends one page and records its answer; the API's `invalid` rows are named by their file line. */
async function sendPage(client: CampaignClient, audienceId: string, page: { lines: number[]; members: MemberInput[] }, tally: Tally): Promise<void> {
  tally.pages += 1;
  const answer = await client.addMembers(audienceId, page.members, pageKey(audienceId, tally.pages, page.members));
  tally.members += page.members.length;
  // A replay is the first run's answer: its counts were written then, not now.
  if (answer.replayed) tally.replayedPages += 1;
  else {
    tally.added += answer.added;
    tally.updated += answer.updated;
  }
  // The API names the field within the page's request (`members[7].attributes.city`); the file line replaces the index.
  for (const { index, field, rule } of answer.invalid)
    tally.bad.push({ line: page.lines[index] ?? 0, text: `${field.replace(/^members\[\d+\]\.?/, '') || field}: ${rule}` });
}

/** Reads the rows into pages and sends each when full; a CSV that breaks off midway ends the reading with its problem. */
async function importRows(
  client: CampaignClient,
  audienceId: string,
  rows: AsyncIterator<AudienceRow>,
  first: AudienceRow,
  pageSize: number,
  tally: Tally,
): Promise<void> {
  let page = { lines: [] as number[], members: [] as MemberInput[] };
  let next: IteratorResult<AudienceRow> = { value: first, done: false };
  try {
    for (; !next.done; next = await rows.next()) {
      const row = next.value;
      tally.rows += 1;
      if ('problems' in row) {
        tally.bad.push(...row.problems.map((text) => ({ line: row.line, text })));
        continue;
      }
      page.lines.push(row.line);
      page.members.push(row.member);
      if (page.members.length < pageSize) continue;
      await sendPage(client, audienceId, page, tally);
      page = { lines: [], members: [] };
    }
  } catch (error) {
    if (!(error instanceof AudienceFileError)) throw error;
    tally.bad.push(...error.problems.map((text) => ({ line: Number.MAX_SAFE_INTEGER, text })));
  }
  if (page.members.length > 0) await sendPage(client, audienceId, page, tally);
}

/**
 * Imports the file; prints where the members went, the counts, and every line not imported.
 *
 * @example
 * const outcome = await audienceImportCommand(client, { filePath: 'people.csv', name: 'VIP customers' }, output);
 */
export async function audienceImportCommand(client: CampaignClient, options: ImportOptions, output: CliOutput): Promise<ImportOutcome> {
  const bytes = statSync(options.filePath).size;
  const bar = new SingleBar(
    { format: 'importing |{bar}| {percentage}% | {rows} rows | {pages} pages', stream: output.progressStream, hideCursor: true },
    Presets.shades_classic,
  );
  const tally: Tally = { rows: 0, pages: 0, replayedPages: 0, members: 0, added: 0, updated: 0, bad: [] };
  const rows = audienceRows(createReadStream(options.filePath), (read) => bar.isActive && bar.update(read, { rows: tally.rows, pages: tally.pages }));
  // The header is judged before any audience is created: a file that cannot be imported leaves nothing behind.
  const first = await rows.next();
  if (first.done) throw new AudienceFileError(['the file has a header row but no members']);
  const { audience, created } = await resolveAudience(client, options);
  output.err(`${created ? 'created audience' : 'adding to audience'} ${audience.audienceId} "${audience.name}"`);
  bar.start(bytes, 0, { rows: 0, pages: 0 });
  try {
    await importRows(client, audience.audienceId, rows, first.value, options.pageSize ?? AUDIENCE_LIMITS.membersPerRequest, tally);
  } finally {
    bar.update(bytes, { rows: tally.rows, pages: tally.pages });
    bar.stop();
  }
  const { memberCount } = await client.audience(audience.audienceId);
  const badLines = tally.bad.sort((a, b) => a.line - b.line).map(({ line, text }) => (line === Number.MAX_SAFE_INTEGER ? text : `line ${line}: ${text}`));
  printOutcome(audience, { ...tally, memberCount, badLines }, output);
  return {
    audienceId: audience.audienceId,
    created,
    pages: tally.pages,
    replayedPages: tally.replayedPages,
    members: tally.members,
    added: tally.added,
    updated: tally.updated,
    badLines,
    memberCount,
  };
}

function printOutcome(audience: AudienceSummary, result: Tally & { memberCount: number; badLines: string[] }, output: CliOutput): void {
  const notImported = new Set(result.bad.map(({ line }) => line)).size;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  output.out(
    `${plural(result.rows, 'row')} read, ${plural(result.members, 'member')} sent in ${plural(result.pages, 'page')}: ${result.added} added, ${result.updated} updated, ${plural(notImported, 'line')} not imported`,
  );
  if (result.replayedPages > 0) {
    output.out(
      `${plural(result.replayedPages, 'page')} answered from an earlier import of the same rows (same Idempotency-Key): nothing written again for ${result.replayedPages === 1 ? 'it' : 'them'}`,
    );
  }
  output.out(`audience ${audience.audienceId} "${audience.name}": ${plural(result.memberCount, 'member')}`);
  if (result.badLines.length === 0) return;
  output.err(`${plural(notImported, 'line')} not imported:`);
  for (const line of result.badLines) output.err(`  ${line}`);
}
