/** The EventBridge Scheduler adapter: the one-time schedule it creates, and what it tolerates. */
import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, type SchedulerClient } from '@aws-sdk/client-scheduler';
import { EventBridgeJobFiringScheduler, atExpressionOf, scheduleNameOf } from '../../../shared/adapters/scheduler/eventbridge-job-firing-scheduler';

const settings = {
  groupName: 'Platform-Api-broadcasts',
  roleArn: 'arn:aws:iam::123456789012:role/invoke',
  targetArn: 'arn:aws:lambda:eu-west-1:123456789012:function:Platform-Api-broadcast-scheduler',
};

function schedulerWith(answer: (command: unknown) => Promise<unknown> = async () => ({})) {
  const sent: unknown[] = [];
  const client = { send: async (command: unknown) => (sent.push(command), answer(command)) } as unknown as SchedulerClient;
  return { scheduler: new EventBridgeJobFiringScheduler(client, settings), sent };
}

describe('EventBridgeJobFiringScheduler', () => {
  it('creates a one-time UTC schedule at the second, no flexible window, deleted after it ran, invoking the target with { jobId } through the role', async () => {
    const { scheduler, sent } = schedulerWith();
    await scheduler.scheduleFiring('pub_abc', new Date('2026-03-01T09:00:05.678Z'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeInstanceOf(CreateScheduleCommand);
    expect((sent[0] as CreateScheduleCommand).input).toMatchObject({
      Name: 'pub_abc',
      GroupName: settings.groupName,
      ScheduleExpression: 'at(2026-03-01T09:00:05)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: settings.targetArn, RoleArn: settings.roleArn, Input: '{"jobId":"pub_abc"}' },
    });
  });

  it('takes an existing schedule of the same job as registered (a retried accept) and passes other errors on', async () => {
    const conflict = schedulerWith(async () => {
      throw new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} });
    });
    await expect(conflict.scheduler.scheduleFiring('pub_abc', new Date())).resolves.toBeUndefined();
    const denied = schedulerWith(async () => {
      throw new Error('AccessDenied');
    });
    await expect(denied.scheduler.scheduleFiring('pub_abc', new Date())).rejects.toThrow('AccessDenied');
  });

  it('deletes the schedule on cancel; one already gone is fine', async () => {
    const { scheduler, sent } = schedulerWith(async () => {
      throw new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} });
    });
    await expect(scheduler.cancelFiring('pub_abc')).resolves.toBeUndefined();
    expect(sent[0]).toBeInstanceOf(DeleteScheduleCommand);
    expect((sent[0] as DeleteScheduleCommand).input).toEqual({ Name: 'pub_abc', GroupName: settings.groupName });
  });

  it('names schedules within the service rules', () => {
    expect(scheduleNameOf('pub_A-b_c')).toBe('pub_A-b_c');
    const long = scheduleNameOf(`pub_${'x'.repeat(64)}`);
    expect(long).toMatch(/^job-[0-9a-f]{40}$/);
    expect(atExpressionOf(new Date('2026-12-31T23:59:59.999Z'))).toBe('at(2026-12-31T23:59:59)');
  });
});
