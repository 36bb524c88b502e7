/**
 * The audience file read as a stream: rows come out while the file is still being read (never the
 * whole file in memory), the header's columns are judged up front, every other column an attribute.
 */
import { Readable } from 'node:stream';
import { audienceRows, readAudienceHeader } from '../../../../scripts/broadcast/audience-csv';
import { AudienceFileError } from '../../../../scripts/broadcast/errors';

/** A file of `rows` rows served in chunks of 100 rows, counting the chunks read so far. */
function chunkedFile(rows: number) {
  const state = { chunksRead: 0 };
  const chunks = function* () {
    yield 'countryCode,toPhoneNumber,first_name,tags\n';
    for (let start = 0; start < rows; start += 100) {
      state.chunksRead += 1;
      yield Array.from({ length: Math.min(100, rows - start) }, (_, offset) => `91,${9100000000 + start + offset},Customer ${start + offset},vip|new\n`).join(
        '',
      );
    }
  };
  return { stream: Readable.from(chunks(), { objectMode: false, highWaterMark: 1024 }), state };
}

describe('audienceRows', () => {
  it('yields the first rows after reading a few chunks of a 100,000-row file, not the whole file', async () => {
    const { stream, state } = chunkedFile(100_000);
    const rows = audienceRows(stream);
    const first = await rows.next();
    expect(first.value).toEqual({
      line: 2,
      member: { countryCode: '91', toPhoneNumber: '9100000000', attributes: { first_name: 'Customer 0' }, tags: ['vip', 'new'] },
    });
    for (let index = 0; index < 500; index += 1) await rows.next();
    // 1,000 chunks in the file; only those for the first ~500 rows (plus the streams' buffers) were read.
    expect(state.chunksRead).toBeLessThan(50);
    await rows.return(undefined);
    stream.destroy();
  });

  it('gives each row its file line (empty lines counted); a record that breaks CSV quoting is a problem of its line, the rows before it kept', async () => {
    const rows: Array<{ line: number }> = [];
    for await (const row of audienceRows(Readable.from(['userId,city\n\nUS.13491208655302741918,Pune\n', 'US.1,"Mu"m\nUS.13491208655302741919,Goa\n'])))
      rows.push(row);
    // csv-parse reads what follows a broken quote as part of it (here to the end): those lines are the broken record's.
    expect(rows.sort((a, b) => a.line - b.line)).toEqual([
      { line: 3, member: { userId: 'US.13491208655302741918', attributes: { city: 'Pune' } } },
      { line: 4, problems: [expect.stringMatching(/^not valid CSV: Invalid Closing Quote: got "m" at line 4/)] },
      { line: 5, problems: [expect.stringMatching(/^not valid CSV: Quote Not Closed/)] },
    ]);
  });

  it('refuses an empty file', async () => {
    await expect(audienceRows(Readable.from([''])).next()).rejects.toThrow(AudienceFileError);
  });
});

describe('readAudienceHeader', () => {
  it('takes tags and the address columns out; every other column is an attribute', () => {
    const header = readAudienceHeader(['first_name', 'phone', 'tags', 'plan_2026']);
    expect(header).toMatchObject({
      tags: 2,
      attributes: [
        ['first_name', 0],
        ['plan_2026', 3],
      ],
      width: 4,
      address: { mode: 'phone', phone: 1 },
    });
  });

  it('names each problem: a column twice, a bad attribute name, no address column', () => {
    expect(readAudienceHeader(['first_name', 'first_name', 'e-mail'])).toEqual({
      problems: [
        'line 1: column "first_name" appears twice',
        'line 1: column "e-mail" is not an attribute name (letters, digits and _, 1 to 64 characters)',
        'line 1: no recipient column (expected countryCode and toPhoneNumber, phone, or userId)',
      ],
    });
  });
});
