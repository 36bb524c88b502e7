import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';
import { platformMetrics } from '../../runtime-contract/observability';
import type { ChunkReport } from '../../shared/broadcast/chunk-outcomes';

/** One processed chunk's business metrics; published with the invocation's other records (logMetrics). */
export function recordChunkMetrics(metrics: Metrics, report: ChunkReport, durationMs: number): void {
  metrics.addMetric(platformMetrics.messagesSent, MetricUnit.Count, report.sent);
  metrics.addMetric(platformMetrics.messagesFailed, MetricUnit.Count, report.failed);
  metrics.addMetric(platformMetrics.messagesUnknown, MetricUnit.Count, report.unknown);
  metrics.addMetric(platformMetrics.rateLimitHolds, MetricUnit.Count, report.rateLimitHolds ?? 0);
  metrics.addMetric(platformMetrics.chunkDuration, MetricUnit.Milliseconds, durationMs);
}
