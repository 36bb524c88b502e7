import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { recordChunkMetrics } from '../../../functions/chunk-worker/chunk-metrics';
import { eventsApplied } from '../../../functions/delivery-events/handle-delivery-records';
import { defaultMetricsNamespace, platformMetrics } from '../../../runtime-contract/observability';
import { functionMetrics } from '../../../shared/observability/metrics';

interface EmfLine {
  _aws: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> };
  [key: string]: unknown;
}

/** What Powertools prints while `run` publishes, with metrics output enabled as on Lambda (or not). */
function printedBy(enabled: boolean, run: () => void): string[] {
  const previous = process.env.POWERTOOLS_METRICS_DISABLED;
  process.env.POWERTOOLS_METRICS_DISABLED = enabled ? 'false' : 'true';
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array): boolean => {
    lines.push(String(chunk));
    return true;
  };
  const writes = [jest.spyOn(process.stdout, 'write').mockImplementation(capture), jest.spyOn(process.stderr, 'write').mockImplementation(capture)];
  try {
    run();
  } finally {
    for (const write of writes) write.mockRestore();
    process.env.POWERTOOLS_METRICS_DISABLED = previous;
  }
  return lines
    .join('')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

describe('function metrics (EMF)', () => {
  it("publishes a chunk's counts and duration under the function's service dimension, once for the invocation", () => {
    const lines = printedBy(true, () => {
      const metrics = functionMetrics('chunk-worker', { POWERTOOLS_METRICS_NAMESPACE: 'TestNamespace' });
      recordChunkMetrics(metrics, { sent: 990, failed: 7, unknown: 3, skipped: 0, continued: 0, rateLimitHolds: 4, chunkDone: true }, 1234);
      recordChunkMetrics(metrics, { sent: 10, failed: 0, unknown: 0, skipped: 0, continued: 0, chunkDone: false }, 56);
      metrics.publishStoredMetrics();
    });
    expect(lines).toHaveLength(1);
    const emf = JSON.parse(lines[0]!) as EmfLine;
    const [directive] = emf._aws.CloudWatchMetrics;
    expect(directive!.Namespace).toBe('TestNamespace');
    expect(directive!.Dimensions).toEqual([['service']]);
    expect(emf.service).toBe('chunk-worker');
    expect(Object.fromEntries(directive!.Metrics.map((metric) => [metric.Name, metric.Unit]))).toEqual({
      [platformMetrics.messagesSent]: MetricUnit.Count,
      [platformMetrics.messagesFailed]: MetricUnit.Count,
      [platformMetrics.messagesUnknown]: MetricUnit.Count,
      [platformMetrics.rateLimitHolds]: MetricUnit.Count,
      [platformMetrics.chunkDuration]: MetricUnit.Milliseconds,
    });
    expect(emf).toMatchObject({
      MessagesSent: [990, 10],
      MessagesFailed: [7, 0],
      MessagesUnknown: [3, 0],
      RateLimitHolds: [4, 0],
      ChunkDuration: [1234, 56],
    });
  });

  it('uses the platform namespace when the environment names none', () => {
    const [line] = printedBy(true, () => {
      const metrics = functionMetrics('delivery-events', {});
      metrics.addMetric(
        platformMetrics.webhookEventsApplied,
        MetricUnit.Count,
        eventsApplied({ applied: 5, notFound: 1, upstreamNotYetRecorded: 0, dropped: 2, inbound: 3, templates: 1, skipped: 0 }),
      );
      metrics.publishStoredMetrics();
    });
    const emf = JSON.parse(line!) as EmfLine;
    expect(emf._aws.CloudWatchMetrics[0]!.Namespace).toBe(defaultMetricsNamespace);
    expect(emf).toMatchObject({ service: 'delivery-events', WebhookEventsApplied: 9 });
  });

  it('prints nothing where metrics are disabled (the local runtime, tests)', () => {
    const lines = printedBy(false, () => {
      const metrics = functionMetrics('chunk-worker', {});
      recordChunkMetrics(metrics, { sent: 1, failed: 0, unknown: 0, skipped: 0, continued: 0, chunkDone: true }, 10);
      metrics.publishStoredMetrics();
    });
    expect(lines).toEqual([]);
  });
});
