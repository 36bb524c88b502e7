/**
 * Reads the file of `audience import` as a stream, one row at a time (never the whole file in
 * memory): the address columns of the recipients CSV (`countryCode` + `toPhoneNumber`, a `phone`
 * column with the full international number, and/or `userId`, judged by the same rules:
 * recipients-csv.ts, row-rules.ts), an optional `tags` column (tags separated by `|`), and every
 * other column an attribute of that name, its cells kept as written (strings: `042` stays `042`).
 * A row the CLI cannot read comes back with its problems and its line; the rest become members.
 */
import type { Readable } from 'node:stream';
import { parse, type Options } from 'csv-parse';
import { ATTRIBUTE_NAME_PATTERN, AUDIENCE_LIMITS } from '../../shared/audiences/audience';
import type { MemberInput } from '../../client/campaign-client';
import { ADDRESS_COLUMN_NAMES, addressColumnsOf, numberOf, type AddressColumns } from './recipients-csv';
import { AudienceFileError } from './errors';
import { judgeRow } from './row-rules';

/** The column that carries a member's tags. */
export const TAGS_COLUMN = 'tags';

export interface AudienceColumns {
  address: AddressColumns;
  /** Column index of `tags` (-1: none). */
  tags: number;
  /** Attribute name and column index, in file order. */
  attributes: Array<[string, number]>;
  width: number;
}

/** A row read: a member, or why it cannot be one. `line` is where the row ends (1 is the header). */
export type AudienceRow = { line: number; member: MemberInput } | { line: number; problems: string[] };

/**
 * The header's columns, or every problem with it (each naming line 1): a column twice, no address
 * column, an attribute name the API would refuse, more attribute columns than a member may carry.
 *
 * @example
 * readAudienceHeader(['phone', 'first_name', 'tags']); // { address: { mode: 'phone', … }, tags: 2, attributes: [['first_name', 1]], width: 3 }
 */
export function readAudienceHeader(names: string[]): AudienceColumns | { problems: string[] } {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const attributes: Array<[string, number]> = [];
  names.forEach((name, index) => {
    if (seen.has(name)) problems.push(`line 1: column "${name}" appears twice`);
    seen.set(name, index);
    if (ADDRESS_COLUMN_NAMES.includes(name) || name === TAGS_COLUMN) return;
    if (!ATTRIBUTE_NAME_PATTERN.test(name)) {
      problems.push(`line 1: column "${name}" is not an attribute name (letters, digits and _, 1 to ${AUDIENCE_LIMITS.attributeNameLength} characters)`);
    }
    attributes.push([name, index]);
  });
  if (attributes.length > AUDIENCE_LIMITS.attributesPerMember) {
    problems.push(`line 1: ${attributes.length} attribute columns, a member carries at most ${AUDIENCE_LIMITS.attributesPerMember}`);
  }
  const address = addressColumnsOf(seen);
  if (typeof address === 'string') problems.push(address);
  if (problems.length > 0 || typeof address === 'string') return { problems };
  return { address, tags: seen.get(TAGS_COLUMN) ?? -1, attributes, width: names.length };
}

/**
 * One data row as a member: its address by the broadcast CLI's rules; its non-empty attribute cells
 * (an empty cell sends nothing, so a re-run keeps what is stored); its tags split on `|`, trimmed,
 * empty ones dropped (an empty `tags` cell sends no tags: stored tags are kept).
 *
 * @example
 * audienceRowOf(['+44 7700 900123', 'Ada', 'vip|new'], 2, columns); // { line: 2, member: { countryCode: '44', toPhoneNumber: '7700900123', attributes: { first_name: 'Ada' }, tags: ['vip', 'new'] } }
 */
export function audienceRowOf(fields: string[], line: number, columns: AudienceColumns): AudienceRow {
  if (fields.length !== columns.width) {
    return { line, problems: [`${fields.length} field${fields.length === 1 ? '' : 's'}, the header has ${columns.width}`] };
  }
  const number = numberOf(fields, columns.address);
  if (typeof number === 'string') return { line, problems: [number] };
  const verdict = judgeRow(number, []);
  if ('problems' in verdict) return { line, problems: verdict.problems };
  const { countryCode, toPhoneNumber, userId } = verdict.recipient;
  const address: MemberInput = userId === undefined ? { countryCode, toPhoneNumber } : { userId };
  const attributes = Object.fromEntries(columns.attributes.map(([name, index]) => [name, fields[index]!]).filter(([, value]) => value !== ''));
  const tags =
    columns.tags === -1
      ? []
      : fields[columns.tags]!.split('|')
          .map((tag) => tag.trim())
          .filter((tag) => tag !== '');
  return {
    line,
    member: { ...address, ...(Object.keys(attributes).length > 0 ? { attributes } : {}), ...(tags.length > 0 ? { tags } : {}) },
  };
}

/**
 * The rows of `input`, read as they stream in; `onBytes` is told how far into the file the reader
 * is (for a progress bar). A record that is not CSV (a stray or unclosed quote) comes back as a
 * problem of its line. Throws AudienceFileError for a header it cannot use, an empty file, or a
 * file that cannot be read.
 *
 * @example
 * for await (const row of audienceRows(createReadStream('people.csv'))) if ('member' in row) page.push(row.member);
 */
export async function* audienceRows(input: Readable, onBytes?: (bytes: number) => void): AsyncGenerator<AudienceRow> {
  // on_record keeps the line and offset of each record (csv-parse's `info` copies its whole state per record: 2x slower);
  // its type says records stay string arrays, hence the cast.
  const toRow = (record: string[], context: { lines: number; bytes: number }) => ({ record, line: context.lines, bytes: context.bytes });
  // A record csv-parse cannot read (a stray or unclosed quote) is skipped and named, not the end of the import.
  const parser = input.pipe(
    parse({
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      skip_records_with_error: true,
      on_record: toRow as unknown as NonNullable<Options['on_record']>,
    }),
  );
  const skipped: AudienceRow[] = [];
  parser.on('skip', (error: Error & { lines?: number }) => skipped.push({ line: error.lines ?? 0, problems: [`not valid CSV: ${error.message}`] }));
  input.on('error', (error) => parser.destroy(error));
  let columns: AudienceColumns | undefined;
  try {
    for await (const { record, line, bytes } of parser as AsyncIterable<ReturnType<typeof toRow>>) {
      onBytes?.(bytes);
      yield* skipped.splice(0);
      if (columns) {
        yield audienceRowOf(record, line, columns);
        continue;
      }
      const header = readAudienceHeader(record);
      if ('problems' in header) throw new AudienceFileError(header.problems);
      columns = header;
    }
  } catch (error) {
    if (error instanceof AudienceFileError) throw error;
    throw new AudienceFileError([`the file cannot be read: ${(error as Error).message}`]);
  }
  if (!columns) throw new AudienceFileError(['the file is empty (expected a header row and one row per member)']);
  yield* skipped.splice(0);
}
