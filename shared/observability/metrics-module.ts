/**
 * The entry of `powertools-metrics.cjs`, the file bundled beside each route group
 * (lib/constructs/side-packages.ts): Powertools Metrics out of the function's own bundle, required
 * by functions/composition/published-count.ts on the first count (an audit entry or a click that
 * could not be written), which most containers never make.
 */
export { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
