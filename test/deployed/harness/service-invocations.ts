/**
 * Invocations AWS services make on the functions' behalf, checked as AWS checks them:
 *
 * - EventBridge Scheduler fires a schedule by assuming the schedule's `Target.RoleArn`: the role
 *   must be a role of the template, trust `scheduler.amazonaws.com` (with the schedule group as
 *   `aws:SourceArn` and the account as `aws:SourceAccount`), and its policies must allow
 *   `lambda:InvokeFunction` on the target, which must be a function of the template.
 * - An EventBridge rule (`AWS::Events::Rule` with `ScheduleExpression`) invokes its Lambda targets
 *   through the function's resource policy: an `AWS::Lambda::Permission` for
 *   `events.amazonaws.com` with the rule as `SourceArn` must exist.
 *
 * A refusal is recorded in the IAM ledger as `<principal>: <action> on <resource>` and nothing is
 * invoked, as on AWS.
 */
import { randomUUID } from 'node:crypto';
import { localAccount, localRegion, resourcesOfType, resourceKey, type CloudAssembly, type IntrinsicResolver, type Json } from './cloud-assembly';
import type { StoredSchedule } from './control-plane-emulators';
import { roleStatements, type DeployedFunction } from './deployed-model';
import type { FunctionHost } from './function-host';
import { deniedResources, trustAllowsService } from './iam-policy';
import type { IamLedger } from './iam-recorder';

export const functionArnOf = (fn: DeployedFunction): string => `arn:aws:lambda:${localRegion}:${localAccount}:function:${fn.physicalName}`;

interface Targets {
  assembly: CloudAssembly;
  resolver: IntrinsicResolver;
  functions: readonly DeployedFunction[];
  hostOf(fn: DeployedFunction): FunctionHost;
  ledger: IamLedger;
}

/** The function an invocation ARN names (unqualified or `:$LATEST`). */
const functionOfArn = (targets: Targets, arn: string): DeployedFunction | undefined =>
  targets.functions.find((fn) => arn === functionArnOf(fn) || arn === `${functionArnOf(fn)}:$LATEST`);

/** Fires one EventBridge Scheduler schedule: the target role's trust and permissions, then the invocation. */
export function schedulerFiring(targets: Targets): (schedule: StoredSchedule) => Promise<void> {
  const { assembly, resolver, ledger } = targets;
  return async (schedule) => {
    const principal = `EventBridge Scheduler (${schedule.groupName})`;
    const refuse = (action: string, resource: string): never => {
      ledger.record({ functionName: principal, action, resources: [resource], denied: [resource] });
      throw new Error(`${principal}: ${action} refused on ${resource}`);
    };
    const role = resourcesOfType(assembly, 'AWS::IAM::Role').find(
      ({ stack, logicalId }) => resolver.resolve({ 'Fn::GetAtt': [logicalId, 'Arn'] }, stack) === schedule.target.RoleArn,
    );
    if (!role) return refuse('sts:AssumeRole', schedule.target.RoleArn);
    const trust = resolver.resolve(role.resource.Properties?.AssumeRolePolicyDocument as Json, role.stack);
    const context = { 'aws:SourceAccount': localAccount, 'aws:SourceArn': schedule.groupArn };
    if (!trustAllowsService(trust, 'scheduler.amazonaws.com', context)) return refuse('sts:AssumeRole', schedule.target.RoleArn);
    ledger.record({ functionName: principal, action: 'sts:AssumeRole', resources: [schedule.target.RoleArn], denied: [] });
    const statements = roleStatements(assembly, role.stack, role.logicalId, resolver);
    const denied = deniedResources(statements, { action: 'lambda:InvokeFunction', resources: [schedule.target.Arn] });
    if (denied.length > 0) return refuse('lambda:InvokeFunction', schedule.target.Arn);
    ledger.record({ functionName: principal, action: 'lambda:InvokeFunction', resources: [schedule.target.Arn], denied: [] });
    const fn = functionOfArn(targets, schedule.target.Arn);
    if (!fn) throw new Error(`${principal}: target ${schedule.target.Arn} is not a function of the assembly`);
    await targets.hostOf(fn).invoke(JSON.parse(schedule.target.Input ?? '{}'));
  };
}

export interface RuleRunner {
  /** Rules found and the functions they invoke (`rule → function`). */
  readonly targets: string[];
  /** Invocations that failed (the function threw), by rule. */
  readonly failures: string[];
  stop(): Promise<void>;
}

/**
 * Runs every enabled scheduled rule's Lambda targets every `intervalMs` (not at the rule's own
 * rate: a test cannot wait a minute per run). One invocation per rule target at a time, as a
 * slow invocation would otherwise pile up behind itself.
 */
export function startScheduledRules(targets: Targets, intervalMs: number): RuleRunner {
  const { assembly, resolver, ledger } = targets;
  const permissions = resourcesOfType(assembly, 'AWS::Lambda::Permission').map(
    ({ stack, resource }) => resolver.resolve(resource.Properties as Json, stack) as Record<string, Json>,
  );
  const runs: Array<{ label: string; invoke(): Promise<unknown> }> = [];
  for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::Events::Rule')) {
    const properties = resolver.resolve(resource.Properties as Json, stack) as Record<string, Json>;
    if (typeof properties.ScheduleExpression !== 'string' || (properties.State ?? 'ENABLED') !== 'ENABLED') continue;
    const ruleArn = String(resolver.resolve({ 'Fn::GetAtt': [logicalId, 'Arn'] }, stack));
    for (const target of (properties.Targets as Array<{ Arn: string; Input?: string }> | undefined) ?? []) {
      const fn = functionOfArn(targets, target.Arn);
      if (!fn) continue; // not a Lambda target
      const principal = `EventBridge rule ${resourceKey(stack, logicalId)}`;
      const allowed = permissions.some(
        (permission) =>
          permission.Action === 'lambda:InvokeFunction' &&
          permission.Principal === 'events.amazonaws.com' &&
          [fn.physicalName, functionArnOf(fn)].includes(String(permission.FunctionName)) &&
          (permission.SourceArn === undefined || permission.SourceArn === ruleArn),
      );
      ledger.record({
        functionName: principal,
        action: 'lambda:InvokeFunction',
        resources: [target.Arn],
        denied: allowed ? [] : [`${target.Arn} (no resource policy for ${ruleArn})`],
      });
      if (!allowed) continue;
      const event =
        target.Input !== undefined
          ? () => JSON.parse(target.Input!) as unknown
          : () => ({
              version: '0',
              id: randomUUID(),
              'detail-type': 'Scheduled Event',
              source: 'aws.events',
              account: localAccount,
              time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
              region: localRegion,
              resources: [ruleArn],
              detail: {},
            });
      runs.push({ label: `${logicalId} → ${fn.name}`, invoke: () => targets.hostOf(fn).invoke(event()) });
    }
  }
  const failures: string[] = [];
  const running = new Set<Promise<unknown>>();
  const busy = new Set<string>();
  const timer = setInterval(() => {
    for (const run of runs) {
      if (busy.has(run.label)) continue;
      busy.add(run.label);
      const invocation = run
        .invoke()
        .catch((error: Error) => void failures.push(`${run.label}: ${error.message}`))
        .finally(() => {
          busy.delete(run.label);
          running.delete(invocation);
        });
      running.add(invocation);
    }
  }, intervalMs);
  return {
    targets: runs.map((run) => run.label),
    failures,
    stop: async () => {
      clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
