/**
 * Scheduled broadcasts on AWS (docs/BROADCAST.md "Scheduling"): the schedule group, the role
 * EventBridge Scheduler assumes, the accepting functions' rights on both, and the sweep rule.
 */
import { ArnFormat, Duration, type Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { broadcastScheduler, functions, type FunctionDefinition, type FunctionName } from '../runtime-contract/resource-definitions';
import type { ServiceFunction } from './constructs/service-function';
import type { PlatformSettings } from './settings';

/**
 * A schedule group for the one-time schedules the accepting function creates (and deletes on
 * cancel), the role EventBridge Scheduler assumes to invoke broadcast-scheduler, and the sweep rule
 * every minute on the same function. The accepting function may create and delete schedules in
 * that group only and pass that role only.
 */
export function createBroadcastScheduling(stack: Stack, serviceFunctions: Record<FunctionName, ServiceFunction>, settings: PlatformSettings): void {
  const target = serviceFunctions[broadcastScheduler.functionName];
  const group = new scheduler.ScheduleGroup(stack, 'BroadcastScheduleGroup', {
    // A fixed name: the accepting function addresses its schedules by group name.
    scheduleGroupName: `${stack.stackName}-broadcasts`.slice(0, 64),
  });
  const targetArn = stack.formatArn({
    service: 'lambda',
    resource: 'function',
    resourceName: target.fixedFunctionName,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
  const invokeRole = new iam.Role(stack, 'BroadcastSchedulerInvokeRole', {
    assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
      // Only schedules of this account's group may use it (confused-deputy guard).
      conditions: { StringEquals: { 'aws:SourceAccount': stack.account }, ArnEquals: { 'aws:SourceArn': group.scheduleGroupArn } },
    }),
    description: 'Assumed by EventBridge Scheduler to fire scheduled broadcasts (invokes broadcast-scheduler only)',
  });
  invokeRole.addToPolicy(new iam.PolicyStatement({ sid: 'FireScheduledBroadcasts', actions: ['lambda:InvokeFunction'], resources: [targetArn] }));

  for (const [name, definition] of Object.entries(functions) as Array<[FunctionName, FunctionDefinition]>) {
    if (definition.schedulesFirings) allowScheduling(stack, serviceFunctions[name], { group, invokeRole, targetArn }, settings);
  }

  // The sweep: any job still due past its time (a lost or failed trigger) fires within a minute or two.
  new events.Rule(stack, 'BroadcastScheduleSweepRule', {
    description: 'Fires scheduled broadcasts whose one-time trigger was missed',
    schedule: events.Schedule.rate(Duration.minutes(broadcastScheduler.sweepIntervalMinutes)),
    targets: [new eventTargets.LambdaFunction(target, { retryAttempts: 2 })],
  });
}

interface Scheduling {
  group: scheduler.ScheduleGroup;
  invokeRole: iam.Role;
  targetArn: string;
}

/** An accepting function: creates and deletes schedules of the group, passes the invoke role, knows all three names. */
function allowScheduling(stack: Stack, fn: ServiceFunction, { group, invokeRole, targetArn }: Scheduling, settings: PlatformSettings): void {
  const scheduleArn = stack.formatArn({
    service: 'scheduler',
    resource: 'schedule',
    resourceName: `${group.scheduleGroupName}/*`,
    arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
  });
  fn.addToRolePolicy(
    new iam.PolicyStatement({ sid: 'ManageBroadcastSchedules', actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'], resources: [scheduleArn] }),
  );
  fn.addToRolePolicy(new iam.PolicyStatement({ sid: 'PassBroadcastSchedulerRole', actions: ['iam:PassRole'], resources: [invokeRole.roleArn] }));
  fn.addEnvironment('BROADCAST_SCHEDULE_GROUP', group.scheduleGroupName);
  fn.addEnvironment('BROADCAST_SCHEDULER_ROLE_ARN', invokeRole.roleArn);
  fn.addEnvironment('BROADCAST_SCHEDULER_TARGET_ARN', targetArn);
  fn.addEnvironment('BROADCAST_SCHEDULE_MIN_LEAD_SECONDS', String(Math.ceil(settings.scheduleMinLeadSeconds)));
}
