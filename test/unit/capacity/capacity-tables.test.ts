/** docs/SCALE.md shows the capacity model's figures as they are: its block is the script's output. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { capacityBlock, replaceCapacityBlock } from '../../../scripts/capacity-block';

const page = readFileSync(join(__dirname, '../../../docs/SCALE.md'), 'utf8');

it('docs/SCALE.md holds the current capacity block (npx tsx scripts/capacity-tables.ts --write)', () => {
  expect(page).toContain(capacityBlock());
});

it('the check sees a stale block', () => {
  const stale = replaceCapacityBlock(page).replace(/\*\*(\d+)\*\* \|/, '**9999** |');
  expect(stale).not.toContain(capacityBlock());
});
