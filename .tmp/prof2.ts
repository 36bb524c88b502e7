import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
(async () => {
  const text = ['countryCode,toPhoneNumber,first_name', ...Array.from({ length: 25000 }, (_, i) => `91,${9100000000 + i},Customer ${i}`)].join('\n');
  for (const info of [true, false]) {
  let t = Date.now();
  let n = 0;
  const p = Readable.from([text]).pipe(parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info }));
  for await (const r of p) n++;
  console.log('info', info, n, Date.now() - t, 'ms');
  }
})();
