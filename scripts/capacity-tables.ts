/**
 * Writes the capacity model's table (runtime-contract/capacity-model.ts) into docs/SCALE.md between
 * its markers, so the page shows the figures the CDK app and the local runtime use.
 *
 *   npx tsx scripts/capacity-tables.ts          # prints the block
 *   npx tsx scripts/capacity-tables.ts --write  # rewrites docs/SCALE.md's block
 *
 * test/unit/capacity/capacity-tables.test.ts fails when the page's block is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capacityBlock, replaceCapacityBlock } from './capacity-block';

const page = join(__dirname, '..', 'docs', 'SCALE.md');
if (process.argv.includes('--write')) {
  writeFileSync(page, replaceCapacityBlock(readFileSync(page, 'utf8')));
  console.log('docs/SCALE.md: capacity block written');
} else {
  console.log(capacityBlock());
}
