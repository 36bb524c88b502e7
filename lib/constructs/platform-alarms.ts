/**
 * The platform's watch: one alarm topic, the alarms and one dashboard, all derived from the
 * resource definitions and the surfaces, so a function, queue or surface added there is watched
 * without an edit here. Thresholds: `runtime-contract/observability.ts`. docs/OPERATIONS.md.
 *
 *  - every function: Errors and Throttles;
 *  - every queue: age of the oldest message; its dead-letter queue: depth (> 0) and age (an hour
 *    for a dead-letter queue a function consumes, half its retention otherwise);
 *  - chunks settled from the outbound dead-letter queue (`ChunksDeadLettered` ≥ 1);
 *  - audit entries not written, per function that writes the audit table (`AuditWriteFailed` ≥ 1);
 *  - every surface's API stage (REST or HTTP API): 5xx rate and p99 latency.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  alarmThresholds,
  deadLetterAgeThresholdSeconds,
  platformMetrics,
  queueAgeThresholdSeconds,
  type AlarmThreshold,
} from '../../runtime-contract/observability';
import { eventSources } from '../../runtime-contract/event-sources';
import { functions, queues, type FunctionName, type QueueName } from '../../runtime-contract/resource-definitions';
import type { SurfaceName } from '../../runtime-contract/route-manifest';
import { pascal } from '../naming';
import type { FrontDoor } from '../surface-apis';

export interface PlatformAlarmsProps {
  functions: Record<FunctionName, lambda.IFunction>;
  queues: Record<QueueName, sqs.IQueue>;
  deadLetterQueues: Record<QueueName, sqs.IQueue>;
  /** Every surface's front door (REST or HTTP API). */
  frontDoors: Record<SurfaceName, FrontDoor>;
  /** Subscribed to the topic by email when given. */
  alarmEmail?: string;
  /** Namespace of the platform's own (EMF) metrics, for the dashboard's business widget. */
  metricsNamespace: string;
  dashboardName: string;
}

const periodOf = (threshold: AlarmThreshold): Duration => Duration.seconds(threshold.periodSeconds);

export class PlatformAlarms extends Construct {
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  /** Every alarm, by what it watches (`function:<name>:errors`, `queue:<name>:age`, `deadLetterQueue:<name>:depth`, `api:<surface>:latency`). */
  readonly alarms = new Map<string, cloudwatch.Alarm>();
  private readonly action: actions.SnsAction;

  constructor(scope: Construct, id: string, props: PlatformAlarmsProps) {
    super(scope, id);

    // CloudWatch publishes to an encrypted topic only with a customer managed key it may use
    // (the AWS managed aws/sns key cannot be granted to cloudwatch.amazonaws.com).
    const key = new kms.Key(this, 'TopicKey', {
      description: 'Encrypts the platform alarm topic',
      enableKeyRotation: true,
    });
    key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'WhatsApp platform alarms',
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    this.action = new actions.SnsAction(this.topic);

    // One row per REST API, function and queue (two graphs each), after the business metrics.
    const rows: cloudwatch.IWidget[][] = [
      [
        new cloudwatch.TextWidget({
          markdown: '# WhatsApp platform\nAlarms and thresholds: docs/OPERATIONS.md. One row per REST API, function and queue.',
          width: 24,
          height: 2,
        }),
      ],
      this.businessWidgets(props.metricsNamespace),
      [this.watchDeadLetteredChunks(props.metricsNamespace)],
      [this.watchAuditWrites(props.metricsNamespace)],
    ];
    for (const [surface, frontDoor] of Object.entries(props.frontDoors) as Array<[SurfaceName, FrontDoor]>) {
      rows.push(this.watchApi(surface, frontDoor));
    }
    // Driven by what the stack built from the definitions: a function or queue added there lands here.
    for (const [name, fn] of Object.entries(props.functions) as Array<[FunctionName, lambda.IFunction]>) {
      rows.push(this.watchFunction(name, fn));
    }
    for (const name of Object.keys(queues) as QueueName[]) {
      rows.push(this.watchQueue(name, props.queues[name], props.deadLetterQueues[name]));
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(3),
    });
    for (const row of rows) this.dashboard.addWidgets(...row);
  }

  private alarm(
    key: string,
    id: string,
    metric: cloudwatch.IMetric,
    threshold: AlarmThreshold,
    comparison: cloudwatch.ComparisonOperator,
    description: string,
  ): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric,
      threshold: threshold.threshold,
      evaluationPeriods: threshold.evaluationPeriods,
      comparisonOperator: comparison,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.set(key, alarm);
    return alarm;
  }

  private watchFunction(name: FunctionName, fn: lambda.IFunction): cloudwatch.IWidget[] {
    const { errors, throttles } = alarmThresholds.functions;
    const id = pascal(name);
    const errorAlarm = this.alarm(
      `function:${name}:errors`,
      `${id}Errors`,
      fn.metricErrors({ period: periodOf(errors), statistic: cloudwatch.Stats.SUM }),
      errors,
      cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      `${name}: invocations failed (crash, timeout or unhandled error); see its log group`,
    );
    const throttleAlarm = this.alarm(
      `function:${name}:throttles`,
      `${id}Throttles`,
      fn.metricThrottles({ period: periodOf(throttles), statistic: cloudwatch.Stats.SUM }),
      throttles,
      cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      `${name}: invocations throttled (concurrency exhausted)`,
    );
    return [
      new cloudwatch.GraphWidget({
        title: `λ ${name}: invocations, errors, throttles`,
        left: [fn.metricInvocations(), fn.metricErrors(), fn.metricThrottles()],
        leftAnnotations: [errorAlarm.toAnnotation()],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: `λ ${name}: duration p50 / p99`,
        left: [fn.metricDuration({ statistic: cloudwatch.Stats.p(50) }), fn.metricDuration({ statistic: cloudwatch.Stats.p(99) })],
        right: [throttleAlarm.metric],
        width: 12,
      }),
    ];
  }

  private watchQueue(name: QueueName, queue: sqs.IQueue, deadLetterQueue: sqs.IQueue): cloudwatch.IWidget[] {
    const id = pascal(name);
    const { queueAge } = alarmThresholds;
    const age = { ...queueAge, threshold: queueAgeThresholdSeconds(name) };
    const ageAlarm = this.alarm(
      `queue:${name}:age`,
      `${id}QueueAge`,
      queue.metricApproximateAgeOfOldestMessage({ period: periodOf(age), statistic: cloudwatch.Stats.MAXIMUM }),
      age,
      cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      `${name}: oldest message waits longer than ${age.threshold} s; its consumer is behind or failing`,
    );
    const { depth } = alarmThresholds.deadLetterQueues;
    const depthAlarm = this.alarm(
      `deadLetterQueue:${name}:depth`,
      `${id}DeadLetterDepth`,
      deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: periodOf(depth), statistic: cloudwatch.Stats.MAXIMUM }),
      depth,
      cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      `${name}: messages in the dead-letter queue; inspect and replay (docs/OPERATIONS.md)`,
    );
    // A consumed dead-letter queue empties itself: an old message there is one its consumer cannot settle.
    const consumer = eventSources.find((source) => source.deadLetters && source.queue === name)?.functionName;
    const deadLetterAge = {
      ...depth,
      threshold: consumer ? alarmThresholds.deadLetterQueues.consumedAgeSeconds : deadLetterAgeThresholdSeconds(queues[name].deadLetterRetentionDays),
    };
    this.alarm(
      `deadLetterQueue:${name}:age`,
      `${id}DeadLetterAge`,
      deadLetterQueue.metricApproximateAgeOfOldestMessage({ period: periodOf(deadLetterAge), statistic: cloudwatch.Stats.MAXIMUM }),
      deadLetterAge,
      cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      consumer
        ? `${name}: ${consumer} keeps failing to settle a dead letter (older than ${deadLetterAge.threshold} s); see its log`
        : `${name}: a dead letter is unhandled for half its retention; replay it before SQS deletes it`,
    );
    return [
      new cloudwatch.GraphWidget({
        title: `SQS ${name}: visible, in flight, oldest (s)`,
        left: [queue.metricApproximateNumberOfMessagesVisible(), queue.metricApproximateNumberOfMessagesNotVisible()],
        right: [ageAlarm.metric],
        rightAnnotations: [ageAlarm.toAnnotation()],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: `SQS ${name} dead letters`,
        left: [depthAlarm.metric],
        leftAnnotations: [depthAlarm.toAnnotation()],
        width: 12,
      }),
    ];
  }

  private watchApi(surface: SurfaceName, surfaceApi: FrontDoor): cloudwatch.IWidget[] {
    const stage = surfaceApi.metrics();
    const id = `${pascal(surface)}Api`;
    const { serverErrorRate, p99LatencyMs } = alarmThresholds.apis;
    const errorRate = this.alarm(
      `api:${surface}:serverErrors`,
      `${id}ServerErrorRate`,
      // The average of 5XXError / 5xx (0 or 1 per request) is the share of requests answered 5xx.
      stage.serverErrors({ period: periodOf(serverErrorRate), statistic: cloudwatch.Stats.AVERAGE }),
      serverErrorRate,
      cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      `${surface} API (${surfaceApi.stageName}): more than ${serverErrorRate.threshold * 100}% of requests answered 5xx`,
    );
    const latency = this.alarm(
      `api:${surface}:latency`,
      `${id}P99Latency`,
      stage.latency({ period: periodOf(p99LatencyMs), statistic: cloudwatch.Stats.p(99) }),
      p99LatencyMs,
      cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      `${surface} API (${surfaceApi.stageName}): p99 latency above ${p99LatencyMs.threshold} ms`,
    );
    return [
      new cloudwatch.GraphWidget({
        title: `API ${surface} (${surfaceApi.stageName}): requests, 4xx, 5xx`,
        left: [stage.count(), stage.clientErrors({ statistic: cloudwatch.Stats.SUM }), stage.serverErrors({ statistic: cloudwatch.Stats.SUM })],
        right: [errorRate.metric],
        rightAnnotations: [errorRate.toAnnotation()],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: `API ${surface} (${surfaceApi.stageName}): latency p50 / p99 (ms)`,
        left: [stage.latency({ statistic: cloudwatch.Stats.p(50) }), latency.metric],
        leftAnnotations: [latency.toAnnotation()],
        width: 12,
      }),
    ];
  }

  /**
   * Chunks settled from the outbound dead-letter queue: the job finished, but a chunk's last
   * delivery crashed, timed out or lost its store (docs/OPERATIONS.md). One is worth a look.
   */
  private watchDeadLetteredChunks(namespace: string): cloudwatch.IWidget {
    const threshold = alarmThresholds.chunksDeadLettered;
    const metric = new cloudwatch.Metric({
      namespace,
      metricName: platformMetrics.chunksDeadLettered,
      dimensionsMap: { service: 'chunk-dead-letters' },
      statistic: cloudwatch.Stats.SUM,
      period: periodOf(threshold),
    });
    const alarm = this.alarm(
      `metric:${platformMetrics.chunksDeadLettered}`,
      'ChunksDeadLettered',
      metric,
      threshold,
      cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      'outboundMessages / singleMessages: a chunk reached its dead-letter queue and was settled there (unsent recipients WORKER_ERROR); find why in the chunk-worker or single-sender log of its job',
    );
    return new cloudwatch.GraphWidget({
      title: 'Chunks settled from the dead-letter queue',
      left: [metric],
      leftAnnotations: [alarm.toAnnotation()],
      width: 24,
    });
  }

  /**
   * Audit entries that could not be written after their retries (the call was answered; the record
   * of who did what has a hole): one alarm per function whose definition writes the audit table.
   */
  private watchAuditWrites(namespace: string): cloudwatch.IWidget {
    const threshold = alarmThresholds.auditWriteFailed;
    const recorders = (Object.keys(functions) as FunctionName[]).filter(
      (name) => functions[name].tables.audit === 'write' || functions[name].tables.audit === 'readWrite',
    );
    const metrics = recorders.map((name) => {
      const dimensionsMap = { service: name };
      const metric = new cloudwatch.Metric({
        namespace,
        metricName: platformMetrics.auditWriteFailed,
        dimensionsMap,
        statistic: cloudwatch.Stats.SUM,
        period: periodOf(threshold),
      });
      const description = `${name}: an audit entry could not be written (the audit table unreachable); the call was answered, its record is missing (docs/OPERATIONS.md)`;
      this.alarm(
        `metric:${platformMetrics.auditWriteFailed}:${name}`,
        `AuditWriteFailed${pascal(name)}`,
        metric,
        threshold,
        cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        description,
      );
      return metric;
    });
    return new cloudwatch.GraphWidget({ title: 'Audit entries not written', left: metrics, width: 24 });
  }

  /** The functions' own metrics (EMF, `service` dimension set by Powertools), found by SEARCH
   * so extra dimensions a function adds do not hide them. */
  private businessWidgets(namespace: string): cloudwatch.IWidget[] {
    const search = (metricName: string, statistic: string, label: string) =>
      new cloudwatch.MathExpression({
        expression: `SEARCH('{${namespace},service} MetricName="${metricName}"', '${statistic}', 300)`,
        label,
        period: Duration.minutes(5),
      });
    return [
      new cloudwatch.GraphWidget({
        title: `Messages sent / failed / unknown (${namespace})`,
        left: [
          search(platformMetrics.messagesSent, 'Sum', 'sent'),
          search(platformMetrics.messagesFailed, 'Sum', 'failed'),
          search(platformMetrics.messagesUnknown, 'Sum', 'unknown'),
        ],
        right: [search(platformMetrics.rateLimitHolds, 'Sum', '130429 holds')],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: 'Chunk duration (ms) and webhook events applied',
        left: [search(platformMetrics.chunkDuration, 'p99', 'chunk p99')],
        right: [search(platformMetrics.webhookEventsApplied, 'Sum', 'webhook events applied')],
        width: 12,
      }),
    ];
  }
}
