import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
(async () => {
  const text = ['countryCode,toPhoneNumber,first_name', ...Array.from({ length: 25000 }, (_, i) => `91,${9100000000 + i},Customer ${i}`)].join('\n');
  for (const mode of ['info', 'onrecord', 'none']) {
  let t = Date.now();
  let n = 0;
  const opts: any = { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true };
  if (mode === 'info') opts.info = true;
  if (mode === 'onrecord') opts.on_record = (record: string[], context: { lines: number; bytes: number }) => ({ record, lines: context.lines, bytes: context.bytes });
  const p = Readable.from([text]).pipe(parse(opts));
  let last: any;
  for await (const r of p) { n++; last = r; }
  console.log(mode, n, Date.now() - t, 'ms', JSON.stringify(last).slice(0, 100));
  }
})();
