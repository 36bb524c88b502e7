/** Settings of scheduled broadcasts: defaults, per-deployment values, and messages naming the variable. */
import { ConfigurationError, parseAppConfig } from '../../../shared/config/app-config';

describe('scheduling settings', () => {
  it('defaults to a 5-minute minimum lead and a 30 s sweep grace, with no scheduler resources', () => {
    expect(parseAppConfig({}).scheduling).toEqual({ minLeadSeconds: 300, sweepGraceMs: 30_000 });
  });

  it('takes the deployment values', () => {
    const config = parseAppConfig({
      BROADCAST_SCHEDULE_MIN_LEAD_SECONDS: '1',
      BROADCAST_SCHEDULE_SWEEP_GRACE_SECONDS: '2',
      BROADCAST_SCHEDULE_GROUP: 'group',
      BROADCAST_SCHEDULER_ROLE_ARN: 'arn:role',
      BROADCAST_SCHEDULER_TARGET_ARN: 'arn:function',
    });
    expect(config.scheduling).toEqual({
      minLeadSeconds: 1,
      sweepGraceMs: 2_000,
      scheduleGroup: 'group',
      schedulerRoleArn: 'arn:role',
      targetFunctionArn: 'arn:function',
    });
  });

  it.each(['0', '-5', '1.5', 'soon'])('refuses a minimum lead of %s, naming the variable', (value) => {
    expect(() => parseAppConfig({ BROADCAST_SCHEDULE_MIN_LEAD_SECONDS: value })).toThrow(
      new ConfigurationError('BROADCAST_SCHEDULE_MIN_LEAD_SECONDS must be a positive integer'),
    );
  });
});
