/**
 * When a queue consumer's failed record comes back: the chunk worker's, and the campaign expander's
 * first failure (functions/chunk-worker/handle-chunk-record.ts, functions/campaign-expander/handle-expansion-record.ts).
 */

/** An SQS visibility of at most 5 minutes, under every queue's visibility timeout. */
const REDELIVERY_MAX_DELAY_SECONDS = 300;

/**
 * When a failed delivery comes back (its visibility set to this; the receive count stays, so the
 * 5th failure still goes to the dead-letter queue): a store fault that outlasted the in-place
 * retries (store-retries.ts) is most often over within seconds, so the first redelivery comes
 * after 1-2 s, not the queue's visibility timeout (12 minutes for chunks, 6 for expansions). Later ones spread out (4-8 s, 16-32 s,
 * 64-128 s: about as long in all as the 10/20/40/80 s before) so that an outage of a minute or two
 * does not use up the five deliveries and dead-letter the chunk. Jittered: chunks failed by one
 * fault do not all return at the same second.
 *
 * @example
 * redeliveryDelaySeconds(1, Math.random); // 1 or 2
 * redeliveryDelaySeconds(4, () => 0.999); // 128
 */
export function redeliveryDelaySeconds(receiveCount: number, random: () => number): number {
  const ceiling = Math.min(REDELIVERY_MAX_DELAY_SECONDS, 2 * 4 ** (Math.max(1, receiveCount) - 1));
  return Math.max(1, Math.round(ceiling / 2 + (random() * ceiling) / 2));
}
