/**
 * A count published at once (EMF) by functions that flush no metrics of their own, such as the
 * HTTP groups: audit entries not written, clicks not counted.
 */
import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';
import type { PlatformMetricName } from '../../runtime-contract/observability';
import { functionMetrics } from '../../shared/observability/metrics';
import { memoize, type CompositionContext } from './composition-context';

/**
 * Adds one to `metricName` under the function's own dimensions; nothing outside a function (tests, benches).
 *
 * @example
 * const auditWriteFailed = publishedCount(context, platformMetrics.auditWriteFailed);
 * auditWriteFailed(); // one AuditWriteFailed, published now
 */
export function publishedCount(context: CompositionContext, metricName: PlatformMetricName): () => void {
  const metrics = memoize((): Metrics | undefined => (context.origin ? functionMetrics(context.origin.name, context.origin.environment) : undefined));
  return () => {
    const own = metrics();
    if (!own) return;
    own.addMetric(metricName, MetricUnit.Count, 1);
    own.publishStoredMetrics();
  };
}
