/**
 * What `functionMetrics` (metrics.ts) gives Powertools Metrics, apart from the class itself, so code
 * that loads the class from its file beside the bundle (functions/composition/published-count.ts)
 * builds the same metrics without importing the package.
 */
import { defaultMetricsNamespace } from '../../runtime-contract/observability';
import type { FunctionName } from '../../runtime-contract/resource-definitions';
import { logger } from './logger';

/**
 * The namespace the CDK app sets (else the default), the function's name as the `service`
 * dimension, and the platform logger for Powertools' own warnings.
 *
 * @example
 * new Metrics(metricsSettingsOf('click-redirect', process.env));
 */
export function metricsSettingsOf(name: FunctionName, env: Readonly<Record<string, string | undefined>>) {
  return { namespace: env.POWERTOOLS_METRICS_NAMESPACE || defaultMetricsNamespace, serviceName: name, logger };
}
