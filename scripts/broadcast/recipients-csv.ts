/**
 * Reads the recipients CSV of `npm run broadcast -- send`: a header row naming `countryCode` and
 * `toPhoneNumber` (the contract's recipient fields) or one `phone` column (the full international
 * number), then `param1` … `paramN`, the template's body parameters in order. Every row is checked
 * before anything is sent, and every problem is reported with its line number and the rule.
 */
import { parse } from 'csv-parse/sync';
import { splitInternationalNumber } from './calling-codes';
import { RecipientsFileError } from './errors';

export interface CsvRecipient {
  /** Line of the file where the row ends (1 is the header). */
  line: number;
  countryCode: string;
  toPhoneNumber: string;
  /** param1 … paramN; empty when the file has no parameter columns. */
  templateParams: string[];
}

export interface RecipientsFile {
  recipients: CsvRecipient[];
  /** N of param1 … paramN. */
  parameterCount: number;
}

const digitsOnly = /^\d+$/;
const parameterColumn = /^param([1-9]\d*)$/;
/** E.164: at most 15 digits with the country code. */
const maxInternationalDigits = 15;

interface Header {
  mode: 'split' | 'phone';
  /** Column index of each field. */
  countryCode: number;
  toPhoneNumber: number;
  phone: number;
  params: number[];
  width: number;
}

function readHeader(names: string[], problems: string[]): Header | undefined {
  const seen = new Map<string, number>();
  const params: number[] = [];
  names.forEach((name, index) => {
    if (seen.has(name)) problems.push(`line 1: column "${name}" appears twice`);
    seen.set(name, index);
    const parameter = parameterColumn.exec(name);
    if (parameter) params[Number(parameter[1]) - 1] = index;
    else if (!['countryCode', 'toPhoneNumber', 'phone'].includes(name)) {
      problems.push(`line 1: unknown column "${name}" (expected countryCode and toPhoneNumber, or phone; then param1 … paramN)`);
    }
  });
  for (let position = 0; position < params.length; position += 1) {
    if (params[position] === undefined) problems.push(`line 1: param${params.length} without param${position + 1} (parameters are param1 … paramN, none left out)`);
  }
  const has = (name: string) => seen.has(name);
  if (has('phone') && (has('countryCode') || has('toPhoneNumber'))) {
    problems.push('line 1: use either a phone column or countryCode and toPhoneNumber columns, not both');
  } else if (!has('phone') && !(has('countryCode') && has('toPhoneNumber'))) {
    problems.push(has('countryCode') || has('toPhoneNumber')
      ? `line 1: column ${has('countryCode') ? 'toPhoneNumber' : 'countryCode'} is missing (countryCode and toPhoneNumber go together)`
      : 'line 1: no recipient column (expected countryCode and toPhoneNumber, or phone)');
  }
  if (problems.length > 0) return undefined;
  return {
    mode: has('phone') ? 'phone' : 'split',
    countryCode: seen.get('countryCode') ?? -1,
    toPhoneNumber: seen.get('toPhoneNumber') ?? -1,
    phone: seen.get('phone') ?? -1,
    params: params as number[],
    width: names.length,
  };
}

/** The recipient's number of the row, or the rule it breaks. */
function readNumber(fields: string[], header: Header): { countryCode: string; toPhoneNumber: string } | string {
  if (header.mode === 'phone') {
    // Written as people write international numbers: +44 7700 900123, 0044-7700-900123.
    const written = fields[header.phone]!;
    const digits = written.replace(/[\s\-().]/g, '').replace(/^(\+|00)/, '');
    if (!digitsOnly.test(digits)) return 'phone must be a full international number: digits, optionally a leading + and spaces or hyphens';
    if (digits.length > maxInternationalDigits) return `phone must be at most ${maxInternationalDigits} digits with the country code (E.164)`;
    const split = splitInternationalNumber(digits);
    if (!split) return 'phone must start with a country calling code (e.g. +44 7700 900123)';
    return split;
  }
  const countryCode = fields[header.countryCode]!;
  const toPhoneNumber = fields[header.toPhoneNumber]!;
  if (!/^\d{1,3}$/.test(countryCode)) return 'countryCode must be 1 to 3 digits (no +)';
  if (!digitsOnly.test(toPhoneNumber)) return 'toPhoneNumber must be digits only (no +, spaces or punctuation)';
  // As the service does: a leading 0 of toPhoneNumber is a trunk prefix and is dropped.
  if (countryCode.length + toPhoneNumber.replace(/^0/, '').length > maxInternationalDigits) {
    return `countryCode + toPhoneNumber must be at most ${maxInternationalDigits} digits (E.164)`;
  }
  return { countryCode, toPhoneNumber };
}

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
    const rowProblems: string[] = [];
    const number = readNumber(fields, header);
    if (typeof number === 'string') rowProblems.push(number);
    const templateParams = header.params.map((index) => fields[index]!);
    templateParams.forEach((value, position) => {
      if (value === '') rowProblems.push(`param${position + 1} must not be empty`);
    });
    if (typeof number !== 'string') {
      // Numbers compare as full international digits, as the service compares them.
      const full = `${number.countryCode}${number.toPhoneNumber.replace(/^0/, '')}`;
      const first = firstLineOf.get(full);
      if (first !== undefined) rowProblems.push(`duplicates line ${first} (the same number)`);
      else firstLineOf.set(full, line);
    }
    if (rowProblems.length > 0) {
      problems.push(...rowProblems.map((problem) => `line ${line}: ${problem}`));
      continue;
    }
    recipients.push({ line, ...(number as { countryCode: string; toPhoneNumber: string }), templateParams });
  }
  if (problems.length > 0) throw new RecipientsFileError(problems);
  return { recipients, parameterCount: header.params.length };
}
