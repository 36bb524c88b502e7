/**
 * Scheduled broadcasts: the one-time trigger (EventBridge Scheduler; the local runtime hands its
 * in-process timers in as an override) and the settings of the accept path. Scheduler SDK only.
 */
import { EventBridgeJobFiringScheduler } from '../../shared/adapters/scheduler/eventbridge-job-firing-scheduler';
import type { JobFiringScheduler } from '../../shared/broadcast/ports';
import { requireSetting } from '../../shared/config/app-config';
import { memoize, type CompositionContext } from './composition-context';
import { schedulerClient } from './scheduler-client';

export function jobFiringSchedulerSection(context: CompositionContext): () => JobFiringScheduler {
  const client = schedulerClient(context);
  return memoize(() => {
    if (context.overrides.jobFiringScheduler) return context.overrides.jobFiringScheduler;
    const { scheduling } = context.config;
    return new EventBridgeJobFiringScheduler(client(), {
      groupName: requireSetting(scheduling.scheduleGroup ?? '', 'BROADCAST_SCHEDULE_GROUP'),
      roleArn: requireSetting(scheduling.schedulerRoleArn ?? '', 'BROADCAST_SCHEDULER_ROLE_ARN'),
      targetArn: requireSetting(scheduling.targetFunctionArn ?? '', 'BROADCAST_SCHEDULER_TARGET_ARN'),
    });
  });
}
