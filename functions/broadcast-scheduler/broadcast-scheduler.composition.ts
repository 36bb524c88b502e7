/**
 * broadcast-scheduler: messaging (readWrite: jobs, held messages, due index), tenancy (read: whether
 * the job's organization is suspended) and the outbound queue. DynamoDB + SQS.
 */
import { jobControlAdapter, jobStoreAdapter } from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import type { FireScheduledJobDependencies, SweepSettings } from '../../shared/broadcast/fire-scheduled-job';
import { broadcastScheduler } from '../../runtime-contract/resource-definitions';
import { lazyPorts, value, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { broadcastStoresSection, scheduledJobStoreSection } from '../composition/messaging.section';
import { organizationStandingSection } from '../composition/module-bridges.section';
import { tenancyReaderSection } from '../composition/tenancy.section';
import { outboundQueueSection } from '../composition/outbound-queue.section';

export interface BroadcastSchedulerDependencies extends FireScheduledJobDependencies {
  sweep: SweepSettings;
}

export function composeBroadcastScheduler(context: CompositionContext): BroadcastSchedulerDependencies {
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<BroadcastSchedulerDependencies>({
    scheduledJobs: scheduledJobStoreSection(context, dynamoDb),
    queue: outboundQueueSection(context),
    clock: value(context.clock),
    jobs: broadcastStoresSection(context, dynamoDb, [jobStoreAdapter, jobControlAdapter]),
    standing: organizationStandingSection(tenancyReaderSection(context, dynamoDb)),
    sweep: value({ graceMs: context.config.scheduling.sweepGraceMs, batchSize: broadcastScheduler.sweepBatchSize }),
  });
}
