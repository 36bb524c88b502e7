/**
 * One-time EventBridge Scheduler schedules that fire scheduled broadcasts (docs/BROADCAST.md
 * "Scheduling"): `at(<UTC time>)`, no flexible window (fires at its minute), deleted by the
 * service after it ran, invoking the broadcast-scheduler function with `{ "jobId": … }` through
 * the role the scheduler assumes. Group, role and target come from configuration.
 */
import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, type SchedulerClient } from '@aws-sdk/client-scheduler';
import { createHash } from 'node:crypto';
import type { JobFiringScheduler } from '../../broadcast/ports';
import { classifyStoreFaults } from '../dynamodb/dynamodb-errors';

export interface EventBridgeSchedulerSettings {
  groupName: string;
  /** The role EventBridge Scheduler assumes to invoke the target. */
  roleArn: string;
  /** The broadcast-scheduler function. */
  targetArn: string;
}

/** Schedule names allow [0-9a-zA-Z-_.], at most 64: job ids fit; a longer one is hashed. */
export const scheduleNameOf = (jobId: string): string =>
  /^[0-9A-Za-z_.-]{1,64}$/.test(jobId) ? jobId : `job-${createHash('sha256').update(jobId).digest('hex').slice(0, 40)}`;

/** `at()` takes a UTC wall time to the second, without zone or fraction. */
export const atExpressionOf = (at: Date): string => `at(${at.toISOString().slice(0, 19)})`;

export class EventBridgeJobFiringScheduler implements JobFiringScheduler {
  constructor(
    private readonly scheduler: SchedulerClient,
    private readonly settings: EventBridgeSchedulerSettings,
  ) {
    classifyStoreFaults(this.scheduler);
  }

  async scheduleFiring(jobId: string, at: Date): Promise<void> {
    try {
      await this.scheduler.send(
        new CreateScheduleCommand({
          Name: scheduleNameOf(jobId),
          GroupName: this.settings.groupName,
          ScheduleExpression: atExpressionOf(at),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          State: 'ENABLED',
          Target: {
            Arn: this.settings.targetArn,
            RoleArn: this.settings.roleArn,
            Input: JSON.stringify({ jobId }),
            // A failed invocation is retried for up to an hour; the sweep covers anything beyond.
            RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 20 },
          },
          Description: `Fires scheduled broadcast ${jobId}`,
        }),
      );
    } catch (error) {
      // The same job's schedule already exists: a retried accept (same Idempotency-Key, same job id).
      if (!(error instanceof ConflictException)) throw error;
    }
  }

  async cancelFiring(jobId: string): Promise<void> {
    try {
      await this.scheduler.send(new DeleteScheduleCommand({ Name: scheduleNameOf(jobId), GroupName: this.settings.groupName }));
    } catch (error) {
      // Already ran (and deleted itself) or never created.
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
}
