import { Readable } from 'node:stream';
import { audienceRows } from '../scripts/broadcast/audience-csv';
(async () => {
  for await (const row of audienceRows(Readable.from(['userId,city\n\nUS.13491208655302741918,Pune\n', 'US.1,"Mu"m\nUS.13491208655302741919,Goa\n', ',"Mum\n']))) console.log(JSON.stringify(row));
  console.log('--');
  for await (const row of audienceRows(Readable.from(['userId,city\n\nUS.13491208655302741918,Pune\n', 'US.1,"Mu"m\nUS.13491208655302741919,Goa\n', 'US.13491208655302741910,Goa\n']))) console.log(JSON.stringify(row));
})();
