import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
(async () => {
  for (const text of [['a,b\n1,2\n', '3,"4\n'], ['a,b\n1,2\n3,"x"y,5\n6,7\n']]) {
    const p = Readable.from(text).pipe(parse({ skip_records_with_error: true, on_record: (r: string[], c: any) => ({ r, l: c.lines }) }));
    p.on('skip', (e: any) => console.log('skip', e.code, e.message, e.lines));
    try { for await (const x of p) console.log(JSON.stringify(x)); } catch (e) { console.log('err', (e as Error).message); }
  }
})();
