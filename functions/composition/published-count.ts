/**
 * A count published at once (EMF) by functions that flush no metrics of their own, such as the
 * HTTP groups: audit entries not written, clicks not counted. Powertools Metrics is loaded on the
 * first count, from its file beside the bundle (lib/constructs/side-packages.ts): most containers
 * never count one, so their cold start does not read it.
 */
import type { PlatformMetricName } from '../../runtime-contract/observability';
import { metricsSettingsOf } from '../../shared/observability/metrics-settings';
import type { CompositionContext } from './composition-context';

/** Replaced by esbuild's `define` in bundles: the file beside the bundle, or false; undefined unbundled. */
declare const __METRICS_MODULE__: string | false | undefined;

type MetricsModule = typeof import('../../shared/observability/metrics-module');
let loaded: MetricsModule | undefined;

function metricsModule(): MetricsModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= (typeof __METRICS_MODULE__ === 'string' ? require(__METRICS_MODULE__) : require('../../shared/observability/metrics-module')) as MetricsModule;
  return loaded;
}

/**
 * Adds one to `metricName` under the function's own dimensions; nothing outside a function (tests, benches).
 *
 * @example
 * const auditWriteFailed = publishedCount(context, platformMetrics.auditWriteFailed);
 * auditWriteFailed(); // one AuditWriteFailed, published now
 */
export function publishedCount(context: Pick<CompositionContext, 'origin'>, metricName: PlatformMetricName): () => void {
  let metrics: InstanceType<MetricsModule['Metrics']> | undefined;
  return () => {
    const origin = context.origin;
    if (!origin) return;
    const { Metrics, MetricUnit } = metricsModule();
    metrics ??= new Metrics(metricsSettingsOf(origin.name, origin.environment));
    metrics.addMetric(metricName, MetricUnit.Count, 1);
    metrics.publishStoredMetrics();
  };
}
