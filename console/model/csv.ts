/**
 * RFC 4180 records of a CSV text with the line each starts on (quoted fields, doubled quotes,
 * quoted line breaks, CRLF or LF, an Excel byte-order mark). One parser for every CSV the console
 * reads: the API's recipients CSV (per-minute.ts) and the audience files a person imports.
 */

export interface CsvRecord {
  /** The 1-based line of the file the record starts on (a quoted line break makes a record span lines). */
  line: number;
  fields: string[];
}

/**
 * Every record of `text`, with its starting line.
 *
 * @example
 * csvRecords('a,b\r\n"x\ny",2\r\nz,3\r\n');
 * // [{ line: 1, fields: ['a', 'b'] }, { line: 2, fields: ['x\ny', '2'] }, { line: 4, fields: ['z', '3'] }]
 */
export function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const begin = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let index = begin; index < text.length; index += 1) {
    const character = text[index]!;
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else {
        if (character === '\n') line += 1;
        field += character;
      }
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      fields.push(field);
      field = '';
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && text[index + 1] === '\n') index += 1;
      fields.push(field);
      records.push({ line: start, fields });
      fields = [];
      field = '';
      line += 1;
      start = line;
    } else field += character;
  }
  if (field !== '' || fields.length > 0) records.push({ line: start, fields: [...fields, field] });
  return records;
}
