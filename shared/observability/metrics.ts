import { Metrics } from '@aws-lambda-powertools/metrics';
import type { FunctionName } from '../../runtime-contract/resource-definitions';
import { metricsSettingsOf } from './metrics-settings';

/**
 * One function's business metrics (Powertools Metrics, CloudWatch EMF): the namespace the CDK app
 * sets (POWERTOOLS_METRICS_NAMESPACE, else the default), and the function's name as the `service`
 * dimension, which the dashboard's SEARCH expressions group by. The Lambda entry point flushes them
 * once per invocation (`logMetrics`).
 *
 * Output is disabled with POWERTOOLS_METRICS_DISABLED=true, which the local runtime and the tests
 * set: there the metrics are counted and dropped, never printed. Powertools' own warnings go
 * through the platform logger (level, masking).
 */
export function functionMetrics(name: FunctionName, env: Readonly<Record<string, string | undefined>>): Metrics {
  return new Metrics(metricsSettingsOf(name, env));
}
