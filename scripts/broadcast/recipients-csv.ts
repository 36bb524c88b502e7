/**
 * Reads the recipients CSV of `npm run broadcast -- send`: a header row naming `countryCode` and
 * `toPhoneNumber` (the contract's recipient fields) or one `phone` column (the full international
 * number), and/or a `userId` column (Meta's business-scoped user id: a row with a userId leaves its
 * number cells empty), then `param1` … `paramN`, the template's body parameters in order. Every row's number
 * and parameters are checked with the service's own rules (row-rules.ts) before any request, and
 * every problem is reported with its line number and the rule. Any other column (`headerLink`,
 * `button0`, a named parameter's `first_name`) is a value column, kept by name for
 * template-fit.ts, which judges it by the template.
 */
import { parse } from 'csv-parse/sync';
import { RecipientsFileError } from './errors';
import { judgeRow, type RowNumber } from './row-rules';

export interface CsvRecipient {
  /** Line of the file where the row ends (1 is the header). */
  line: number;
  /** '' for a row addressed by `userId`. */
  countryCode: string;
  toPhoneNumber: string;
  /** The row's business-scoped user id, when it is addressed by one. */
  userId?: string;
  /** param1 … paramN; empty when the file has no parameter columns. */
  templateParams: string[];
  /** The value columns' cells by column name (present when the file has value columns). */
  cells?: Record<string, string>;
}

export interface RecipientsFile {
  recipients: CsvRecipient[];
  /** N of param1 … paramN. */
  parameterCount: number;
  /** The columns besides the recipient and param columns, in file order (present when there are some). */
  valueColumns?: string[];
}

const parameterColumn = /^param([1-9]\d*)$/;

/** Where a row's address is: the column index of each address field (-1: no such column). */
export interface AddressColumns {
  mode: 'split' | 'phone' | 'userId';
  userId: number;
  countryCode: number;
  toPhoneNumber: number;
  phone: number;
}

/** The columns that address a row, never a value column. */
export const ADDRESS_COLUMN_NAMES: readonly string[] = ['countryCode', 'toPhoneNumber', 'phone', 'userId'];

interface Header extends AddressColumns {
  params: number[];
  /** Column index of each value column by name. */
  values: Map<string, number>;
  width: number;
}

/**
 * The address columns of a header (`seen`: column index by name), or a problem naming line 1: the
 * split columns, a `phone` column, and/or a `userId` column (recipients-csv and audience-csv share it).
 *
 * @example
 * addressColumnsOf(new Map([['phone', 0]])); // { mode: 'phone', phone: 0, userId: -1, countryCode: -1, toPhoneNumber: -1 }
 */
export function addressColumnsOf(seen: ReadonlyMap<string, number>): AddressColumns | string {
  const has = (name: string) => seen.has(name);
  if (has('phone') && (has('countryCode') || has('toPhoneNumber'))) {
    return 'line 1: use either a phone column or countryCode and toPhoneNumber columns, not both';
  }
  if (!has('phone') && !(has('countryCode') && has('toPhoneNumber')) && !(has('userId') && !has('countryCode') && !has('toPhoneNumber'))) {
    return has('countryCode') || has('toPhoneNumber')
      ? `line 1: column ${has('countryCode') ? 'toPhoneNumber' : 'countryCode'} is missing (countryCode and toPhoneNumber go together)`
      : 'line 1: no recipient column (expected countryCode and toPhoneNumber, phone, or userId)';
  }
  return {
    mode: has('phone') ? 'phone' : has('countryCode') ? 'split' : 'userId',
    userId: seen.get('userId') ?? -1,
    countryCode: seen.get('countryCode') ?? -1,
    toPhoneNumber: seen.get('toPhoneNumber') ?? -1,
    phone: seen.get('phone') ?? -1,
  };
}

function readHeader(names: string[], problems: string[]): Header | undefined {
  const seen = new Map<string, number>();
  const params: number[] = [];
  const values = new Map<string, number>();
  names.forEach((name, index) => {
    if (seen.has(name)) problems.push(`line 1: column "${name}" appears twice`);
    seen.set(name, index);
    const parameter = parameterColumn.exec(name);
    if (parameter) params[Number(parameter[1]) - 1] = index;
    else if (!ADDRESS_COLUMN_NAMES.includes(name)) values.set(name, index);
  });
  for (let position = 0; position < params.length; position += 1) {
    if (params[position] === undefined)
      problems.push(`line 1: param${params.length} without param${position + 1} (parameters are param1 … paramN, none left out)`);
  }
  const address = addressColumnsOf(seen);
  if (typeof address === 'string') problems.push(address);
  if (problems.length > 0 || typeof address === 'string') return undefined;
  return { ...address, params: params as number[], values, width: names.length };
}

/**
 * The recipient fields of the row: its userId when that cell is filled, else its number by the
 * header's mode; a string names what is wrong.
 *
 * @example
 * numberOf(['44', '7700900123'], { mode: 'split', countryCode: 0, toPhoneNumber: 1, phone: -1, userId: -1 }); // { countryCode: '44', toPhoneNumber: '7700900123' }
 */
export function numberOf(fields: string[], header: AddressColumns): RowNumber | string {
  const userId = header.userId === -1 ? '' : fields[header.userId]!;
  const numberCells =
    header.mode === 'phone' ? [fields[header.phone]!] : header.mode === 'split' ? [fields[header.countryCode]!, fields[header.toPhoneNumber]!] : [];
  if (userId !== '') return numberCells.some((cell) => cell !== '') ? 'give either a number or a userId, not both' : { userId };
  if (header.mode === 'userId') return 'userId must not be empty';
  return header.mode === 'phone' ? { phone: numberCells[0]! } : { countryCode: numberCells[0]!, toPhoneNumber: numberCells[1]! };
}

const cellsOf = (fields: string[], header: Header): Record<string, string> =>
  Object.fromEntries([...header.values].map(([name, index]) => [name, fields[index]!]));

/** Parses and validates the whole file; throws RecipientsFileError naming every bad line. */
export function parseRecipientsCsv(content: string | Buffer): RecipientsFile {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(content, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as typeof records;
  } catch (error) {
    // Unbalanced quotes and the like: csv-parse names the line.
    throw new RecipientsFileError([`the file is not valid CSV: ${(error as Error).message}`]);
  }
  const [headerRecord, ...rows] = records;
  if (!headerRecord) throw new RecipientsFileError(['the file is empty (expected a header row and one row per recipient)']);
  const problems: string[] = [];
  const header = readHeader(headerRecord.record, problems);
  if (!header) throw new RecipientsFileError(problems);
  if (rows.length === 0) throw new RecipientsFileError(['the file has a header row but no recipients']);

  const recipients: CsvRecipient[] = [];
  const firstLineOf = new Map<string, number>();
  for (const { record: fields, info } of rows) {
    const line = info.lines;
    if (fields.length !== header.width) {
      problems.push(`line ${line}: ${fields.length} field${fields.length === 1 ? '' : 's'}, the header has ${header.width}`);
      continue;
    }
    const number = numberOf(fields, header);
    if (typeof number === 'string') {
      problems.push(`line ${line}: ${number}`);
      continue;
    }
    const verdict = judgeRow(
      number,
      header.params.map((index) => fields[index]!),
    );
    if ('problems' in verdict) {
      problems.push(...verdict.problems.map((problem) => `line ${line}: ${problem}`));
      continue;
    }
    // Numbers compare as full international digits, trunk zeros dropped, as the service compares them; userIds as written.
    const first = firstLineOf.get(verdict.phoneNumber);
    if (first !== undefined) {
      problems.push(`line ${line}: duplicates line ${first} (the same ${verdict.recipient.userId === undefined ? 'number' : 'userId'})`);
      continue;
    }
    firstLineOf.set(verdict.phoneNumber, line);
    recipients.push({ line, ...verdict.recipient, ...(header.values.size > 0 ? { cells: cellsOf(fields, header) } : {}) });
  }
  if (problems.length > 0) throw new RecipientsFileError(problems);
  return { recipients, parameterCount: header.params.length, ...(header.values.size > 0 ? { valueColumns: [...header.values.keys()] } : {}) };
}
