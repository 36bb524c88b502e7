/** The capacity model as a Markdown block for docs/SCALE.md (scripts/capacity-tables.ts writes it). */
import { capacityInputs } from '../runtime-contract/capacity-inputs';
import { capacities, functionOfConsumer, localConcurrencyOf, totalConcurrency } from '../runtime-contract/capacity-model';

export const CAPACITY_BEGIN = '<!-- capacity-model:begin (npx tsx scripts/capacity-tables.ts --write) -->';
export const CAPACITY_END = '<!-- capacity-model:end -->';

const thousands = (value: number) => value.toLocaleString('en-US');

/**
 * The block: one row per queue consumer, then the budget against the account's quota.
 *
 * @example
 * const markdown = capacityBlock();
 */
export function capacityBlock(): string {
  const unqueued = Object.values(capacityInputs.unqueuedPeak).reduce((sum, value) => sum + value, 0);
  const rows = capacities.map((capacity) => {
    const functionName = functionOfConsumer[capacity.consumer];
    return `| ${functionName} | ${capacity.basis} | ${capacity.load} | **${capacity.ceiling}** | ${localConcurrencyOf({ functionName, maxConcurrency: capacity.ceiling })} |`;
  });
  return [
    CAPACITY_BEGIN,
    "| function | load at peak (capacity-inputs.ts) | in flight (Little's law) | event source ceiling (L + 3√L) | locally |",
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Queue consumers' ceilings plus the unqueued functions' peak (${unqueued}: meta-webhook, upstream-wrapper, broadcast-send, the other API functions) = **${thousands(totalConcurrency(capacities, capacityInputs))}** of the account's quota of ${thousands(capacityInputs.accountConcurrencyQuota)} (an input: AWS's default 1,000 does not hold this peak, and the model refuses to build under it).`,
    CAPACITY_END,
  ].join('\n');
}

/** `page` with its block replaced by the current one. */
export function replaceCapacityBlock(page: string): string {
  const begin = page.indexOf(CAPACITY_BEGIN);
  const end = page.indexOf(CAPACITY_END);
  if (begin < 0 || end < begin) throw new Error('docs/SCALE.md has no capacity-model markers');
  return page.slice(0, begin) + capacityBlock() + page.slice(end + CAPACITY_END.length);
}
