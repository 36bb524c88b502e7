/**
 * An audience file as a person imports it (docs/CONSOLE.md "Importing a CSV"): a header row naming
 * `countryCode`, `toPhoneNumber`, `userId`, `tags` (joined by `|`, as the API's members CSV writes
 * them) and any other column as an attribute; one member per line. Parsed in the browser, sent in
 * pages, and each line the API refuses named by its line number with the API's field and rule.
 */
import { csvRecords } from './csv';

/** The identity and tag columns; any other header is an attribute's name. */
export const IDENTITY_COLUMNS = ['countryCode', 'toPhoneNumber', 'userId'] as const;
export const TAGS_COLUMN = 'tags';
/** The API's attribute name rule (shared/audiences/audience.ts ATTRIBUTE_NAME_PATTERN). */
const ATTRIBUTE_NAME = /^[A-Za-z0-9_]{1,64}$/;
/** Rows per request: the API takes 10,000; 1,000 keeps each request short and the progress fine-grained. */
export const IMPORT_PAGE_SIZE = 1_000;

export interface MemberRow {
  countryCode?: string;
  toPhoneNumber?: string;
  userId?: string;
  tags?: string[];
  attributes?: Record<string, string>;
}

export interface CsvMember {
  line: number;
  member: MemberRow;
}

export interface LineProblem {
  line: number;
  field: string;
  rule: string;
}

export type CsvMembers = { ok: true; members: CsvMember[]; problems: LineProblem[]; attributes: string[] } | { ok: false; problem: LineProblem };

function headerProblem(header: readonly string[]): LineProblem | undefined {
  if (!header.includes('toPhoneNumber') && !header.includes('userId'))
    return { line: 1, field: 'header', rule: 'must name toPhoneNumber (with countryCode) or userId' };
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) return { line: 1, field: 'header', rule: `names ${name} twice` };
    seen.add(name);
    const known = (IDENTITY_COLUMNS as readonly string[]).includes(name) || name === TAGS_COLUMN;
    if (!known && !ATTRIBUTE_NAME.test(name))
      return { line: 1, field: `header ${JSON.stringify(name)}`, rule: 'must be an attribute name: letters, digits and _ (1 to 64 characters)' };
  }
  return undefined;
}

function memberOf(header: readonly string[], fields: readonly string[]): MemberRow {
  const member: MemberRow = {};
  const attributes: Record<string, string> = {};
  header.forEach((name, column) => {
    const value = (fields[column] ?? '').trim();
    // An empty cell is an absent field: an attribute left empty takes the campaign's fallback.
    if (value === '') return;
    if (name === 'countryCode' || name === 'toPhoneNumber' || name === 'userId') member[name] = value;
    else if (name === TAGS_COLUMN)
      member.tags = value
        .split('|')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== '');
    else attributes[name] = value;
  });
  if (Object.keys(attributes).length > 0) member.attributes = attributes;
  return member;
}

/**
 * The members of an audience file, each with its line; lines the file itself breaks (more fields than
 * the header) as problems; a header the API could not take refuses the whole file.
 *
 * @example
 * membersOfCsv('countryCode,toPhoneNumber,first_name,tags\n91,9800000001,Ada,vip|new\n91,9800000002,,\n');
 * // { ok: true, attributes: ['first_name'], problems: [], members: [
 * //   { line: 2, member: { countryCode: '91', toPhoneNumber: '9800000001', attributes: { first_name: 'Ada' }, tags: ['vip', 'new'] } },
 * //   { line: 3, member: { countryCode: '91', toPhoneNumber: '9800000002' } }] }
 */
export function membersOfCsv(text: string): CsvMembers {
  const [first, ...records] = csvRecords(text);
  if (!first) return { ok: false, problem: { line: 1, field: 'file', rule: 'is empty' } };
  const header = first.fields.map((name) => name.trim());
  const problem = headerProblem(header);
  if (problem) return { ok: false, problem };
  const members: CsvMember[] = [];
  const problems: LineProblem[] = [];
  for (const { line, fields } of records) {
    if (fields.every((field) => field.trim() === '')) continue;
    if (fields.length > header.length) problems.push({ line, field: `column ${header.length + 1}`, rule: `is beyond the header's ${header.length} columns` });
    else members.push({ line, member: memberOf(header, fields) });
  }
  const attributes = header.filter((name) => !(IDENTITY_COLUMNS as readonly string[]).includes(name) && name !== TAGS_COLUMN);
  return { ok: true, members, problems, attributes };
}

/**
 * The members in request pages (each sent with its own Idempotency-Key, so a retried page writes once).
 *
 * @example
 * pagesOf(members, 1000).map((page) => page.length); // [1000, 1000, 12]
 */
export function pagesOf<T>(items: readonly T[], size = IMPORT_PAGE_SIZE): T[][] {
  const pages: T[][] = [];
  for (let start = 0; start < items.length; start += size) pages.push(items.slice(start, start + size));
  return pages;
}

/**
 * The API's `invalid` of one page (`index` in that page's `members`) as the file's lines.
 *
 * @example
 * linesOfInvalid([{ line: 2, member }, { line: 5, member }], [{ index: 1, field: 'toPhoneNumber', rule: 'must be 4 to 14 digits' }]);
 * // [{ line: 5, field: 'toPhoneNumber', rule: 'must be 4 to 14 digits' }]
 */
export function linesOfInvalid(page: readonly CsvMember[], invalid: ReadonlyArray<{ index: number; field: string; rule: string }>): LineProblem[] {
  return invalid.map(({ index, field, rule }) => ({ line: page[index]?.line ?? 0, field, rule }));
}

/** How a line's problem reads: "Line 7: toPhoneNumber must be 4 to 14 digits". */
export const problemText = ({ line, field, rule }: LineProblem): string => `Line ${line}: ${field} ${rule}`;
