/**
 * The names and ARNs the local stand-ins give the template's resources (what `Ref` and
 * `Fn::GetAtt` resolve to), planned before anything starts: a table is named after its logical
 * id, a queue too (its URL is fauxqs's, fixed once the queue exists), a key gets a fresh id; roles,
 * schedule groups and rules get the ARNs AWS would give them.
 */
import { randomUUID } from 'node:crypto';
import { localAccount, localRegion, resourceKey, resourcesOfType, type CloudAssembly, type LocalResource } from './cloud-assembly';

export function plannedLocalResources(assembly: CloudAssembly, queueEndpoint = 'http://127.0.0.1:0'): Map<string, LocalResource> {
  const locals = new Map<string, LocalResource>();
  for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::DynamoDB::Table')) {
    const name = typeof resource.Properties?.TableName === 'string' ? resource.Properties.TableName : logicalId;
    locals.set(resourceKey(stack, logicalId), { ref: name, attributes: { Arn: `arn:aws:dynamodb:${localRegion}:${localAccount}:table/${name}` } });
  }
  for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::SQS::Queue')) {
    const name = typeof resource.Properties?.QueueName === 'string' ? resource.Properties.QueueName : logicalId;
    const url = `${queueEndpoint}/${localAccount}/${name}`;
    locals.set(resourceKey(stack, logicalId), {
      ref: url,
      attributes: { Arn: `arn:aws:sqs:${localRegion}:${localAccount}:${name}`, QueueName: name, QueueUrl: url },
    });
  }
  for (const { stack, logicalId } of resourcesOfType(assembly, 'AWS::KMS::Key')) {
    const keyId = randomUUID();
    locals.set(resourceKey(stack, logicalId), { ref: keyId, attributes: { Arn: `arn:aws:kms:${localRegion}:${localAccount}:key/${keyId}`, KeyId: keyId } });
  }
  for (const { stack, logicalId } of resourcesOfType(assembly, 'AWS::ApiGateway::UsagePlan')) {
    locals.set(resourceKey(stack, logicalId), { ref: `up${logicalId.slice(-8).toLowerCase()}` });
  }
  for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::ApiGateway::Stage')) {
    locals.set(resourceKey(stack, logicalId), { ref: String(resource.Properties?.StageName) });
  }
  for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::Lambda::Function')) {
    const name = typeof resource.Properties?.FunctionName === 'string' ? resource.Properties.FunctionName : logicalId;
    locals.set(resourceKey(stack, logicalId), { ref: name, attributes: { Arn: `arn:aws:lambda:${localRegion}:${localAccount}:function:${name}` } });
  }
  for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::IAM::Role')) {
    const name = typeof resource.Properties?.RoleName === 'string' ? resource.Properties.RoleName : logicalId;
    locals.set(resourceKey(stack, logicalId), {
      ref: name,
      attributes: { Arn: `arn:aws:iam::${localAccount}:role/${name}`, RoleId: `AROA${logicalId.slice(-12).toUpperCase()}` },
    });
  }
  for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::Scheduler::ScheduleGroup')) {
    const name = typeof resource.Properties?.Name === 'string' ? resource.Properties.Name : logicalId;
    locals.set(resourceKey(stack, logicalId), { ref: name, attributes: { Arn: `arn:aws:scheduler:${localRegion}:${localAccount}:schedule-group/${name}` } });
  }
  for (const { stack, logicalId, resource } of resourcesOfType(assembly, 'AWS::Events::Rule')) {
    const name = typeof resource.Properties?.Name === 'string' ? resource.Properties.Name : logicalId;
    locals.set(resourceKey(stack, logicalId), { ref: name, attributes: { Arn: `arn:aws:events:${localRegion}:${localAccount}:rule/${name}` } });
  }
  return locals;
}
