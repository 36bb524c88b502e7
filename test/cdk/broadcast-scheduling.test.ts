/** Scheduled broadcasts on AWS: the schedule group, the role EventBridge Scheduler assumes, the sweep rule, and the grants of the accepting function. */
import type { Template } from 'aws-cdk-lib/assertions';
import { broadcastScheduler, functions, type FunctionName } from '../../runtime-contract/resource-definitions';
import { actionsOf, allActions, functionLogicalId, functionProperties, mentions, resourcesOf, roleStatements, synthesizePlatform } from './support/platform';

let api: Template;
let stateful: Template;

beforeAll(() => {
  ({ api, stateful } = synthesizePlatform());
});

const schedulerFunctionId = () => functionLogicalId(api, broadcastScheduler.functionName);
const groupId = () => Object.keys(resourcesOf(api, 'AWS::Scheduler::ScheduleGroup'))[0]!;
const groupName = () => Object.values(resourcesOf(api, 'AWS::Scheduler::ScheduleGroup'))[0]!.Properties!.Name as string;
const invokeRole = () =>
  Object.entries(resourcesOf(api, 'AWS::IAM::Role')).find(([, role]) => mentions(role.Properties!.AssumeRolePolicyDocument, 'scheduler.amazonaws.com'))!;

describe('scheduled broadcasts', () => {
  it('has one schedule group, named after the stack', () => {
    const groups = resourcesOf(api, 'AWS::Scheduler::ScheduleGroup');
    expect(Object.keys(groups)).toHaveLength(1);
    expect(groupName()).toMatch(/-broadcasts$/);
  });

  it('gives EventBridge Scheduler a role that may invoke broadcast-scheduler only, for schedules of its group only', () => {
    const [roleId, role] = invokeRole();
    const trust = role.Properties!.AssumeRolePolicyDocument.Statement[0];
    expect(trust.Principal).toEqual({ Service: 'scheduler.amazonaws.com' });
    expect(trust.Condition.StringEquals['aws:SourceAccount']).toBeDefined();
    expect(mentions(trust.Condition.ArnEquals['aws:SourceArn'], groupId())).toBe(true);
    const statements = Object.values(resourcesOf(api, 'AWS::IAM::Policy'))
      .filter((policy) => (policy.Properties!.Roles as Array<{ Ref: string }>).some((ref) => ref.Ref === roleId))
      .flatMap((policy) => policy.Properties!.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);
    expect(statements.flatMap(actionsOf)).toEqual(['lambda:InvokeFunction']);
    const target = functionProperties(api, broadcastScheduler.functionName).FunctionName as string;
    for (const statement of statements) for (const resource of [statement.Resource].flat()) expect(mentions(resource, target)).toBe(true);
  });

  it('sweeps every minute by a rule targeting broadcast-scheduler, which only that rule may invoke besides the role', () => {
    const rules = Object.values(resourcesOf(api, 'AWS::Events::Rule'));
    const sweep = rules.filter((rule) => mentions(rule.Properties!.Targets, schedulerFunctionId()));
    expect(sweep).toHaveLength(1);
    expect(sweep[0]!.Properties!.ScheduleExpression).toBe('rate(1 minute)');
    const permissions = Object.values(resourcesOf(api, 'AWS::Lambda::Permission')).filter((permission) =>
      mentions(permission.Properties!.FunctionName, schedulerFunctionId()),
    );
    expect(permissions.map((permission) => permission.Properties!.Principal)).toEqual(['events.amazonaws.com']);
  });

  it('lets only the functions that schedule firings create and delete schedules, in the group only, and pass the role only', () => {
    const [roleId] = invokeRole();
    for (const name of Object.keys(functions) as FunctionName[]) {
      const statements = roleStatements(api, name);
      const scheduling = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('scheduler:')));
      const passing = statements.filter((statement) => actionsOf(statement).includes('iam:PassRole'));
      if (!functions[name].schedulesFirings) {
        expect(allActions(api, name).filter((action) => action.startsWith('scheduler:') || action === 'iam:PassRole')).toEqual([]);
        continue;
      }
      expect(scheduling.flatMap(actionsOf).sort()).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']);
      for (const statement of scheduling) expect(mentions(statement.Resource, ':schedule/')).toBe(true);
      for (const statement of scheduling) expect(mentions(statement.Resource, `:schedule/${groupName()}/*`)).toBe(true);
      expect(passing).toHaveLength(1);
      expect(passing[0]!.Resource).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
      const variables = functionProperties(api, name).Environment.Variables;
      expect(variables.BROADCAST_SCHEDULE_GROUP).toBe(groupName());
      expect(variables.BROADCAST_SCHEDULER_ROLE_ARN).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
      expect(mentions(variables.BROADCAST_SCHEDULER_TARGET_ARN, functionProperties(api, broadcastScheduler.functionName).FunctionName)).toBe(true);
    }
    expect(functions['broadcast-send'].schedulesFirings).toBe(true);
  });

  it('indexes scheduled jobs in a gsi2 of the messaging table', () => {
    // The messaging table's (the audit table has a gsi2 of its own: entries by action).
    const tables = Object.entries(resourcesOf(stateful, 'AWS::DynamoDB::Table'))
      .filter(([logicalId]) => logicalId.startsWith('MessagingTable'))
      .map(([, table]) => table);
    expect(tables).toHaveLength(1);
    const indexes = tables.flatMap(
      (table) => (table.Properties!.GlobalSecondaryIndexes ?? []) as Array<{ IndexName: string; KeySchema: Array<{ AttributeName: string }> }>,
    );
    const gsi2 = indexes.filter((index) => index.IndexName === 'gsi2');
    expect(gsi2).toHaveLength(1);
    expect(gsi2[0]!.KeySchema.map((key) => key.AttributeName)).toEqual(['gsi2pk', 'gsi2sk']);
  });
});
