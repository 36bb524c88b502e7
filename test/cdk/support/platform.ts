/**
 * Synthesizes the real CDK app (lib/platform.ts) the way bin/app.ts does, with cdk.json's context,
 * bundling skipped (entries may not exist; esbuild is slow) and a fixed account/region. Call once
 * per test file (beforeAll): a synth takes seconds on a small machine.
 *
 * aws-cdk-lib's built-in CloudFormation validation (a WebAssembly linter run on every synth) is off
 * here: it took about 8 of the first synth's 11 s in every test file. It runs once per test run, in
 * test/cdk/nag.test.ts (`builtinValidation: true`), which asserts it finds nothing.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { createPlatform, type Platform } from '../../../lib/platform';
import { projectRoot, readSettings } from '../../../lib/settings';

export const testAccount = '123456789012';
export const testRegion = 'eu-west-1';

export interface SynthesizedPlatform {
  platform: Platform;
  stateful: Template;
  api: Template;
  operations: Template;
}

/**
 * `beforeSynth` runs on the built app before any template is synthesized (e.g. to add cdk-nag's
 * aspects); `builtinValidation` turns aws-cdk-lib's CloudFormation validation back on (its report is
 * `validation-report.json` in the app's assembly directory).
 */
export function synthesizePlatform(
  context: Record<string, unknown> = {},
  beforeSynth?: (app: App, platform: Platform) => void,
  { builtinValidation = false }: { builtinValidation?: boolean } = {},
): SynthesizedPlatform {
  const cdkJson = JSON.parse(readFileSync(path.join(projectRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  const app = new App({
    context: { ...cdkJson.context, skipBundling: true, account: testAccount, region: testRegion, ...context },
    builtinCloudFormationValidation: builtinValidation,
  });
  const platform = createPlatform(app, readSettings(app.node, {}));
  beforeSynth?.(app, platform);
  return {
    platform,
    stateful: Template.fromStack(platform.stateful),
    api: Template.fromStack(platform.api),
    operations: Template.fromStack(platform.operations),
  };
}

type Resources = Record<
  string,
  { Type: string; Properties?: Record<string, any>; DependsOn?: string[] | string; DeletionPolicy?: string; UpdateReplacePolicy?: string }
>;

export const resourcesOf = (template: Template, type: string): Resources => template.findResources(type) as Resources;

/** Logical id of the Lambda function tagged `function: <name>`. */
export function functionLogicalId(template: Template, name: string): string {
  const matches = Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(([, resource]) =>
    (resource.Properties?.Tags ?? []).some((tag: { Key: string; Value: string }) => tag.Key === 'function' && tag.Value === name),
  );
  if (matches.length !== 1) throw new Error(`expected one function tagged ${name}, found ${matches.length}`);
  return matches[0]![0];
}

export const functionProperties = (template: Template, name: string): Record<string, any> =>
  resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(template, name)]!.Properties!;

/** Every IAM statement attached (through AWS::IAM::Policy) to the execution role of a function. */
export function roleStatements(template: Template, name: string): Array<{ Action: string | string[]; Resource: unknown; Effect: string; Sid?: string }> {
  const roleRef = functionProperties(template, name).Role;
  const roleId: string = roleRef['Fn::GetAtt'][0];
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties!.Roles as Array<{ Ref: string }>).some((role) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties!.PolicyDocument.Statement);
}

export const actionsOf = (statement: { Action: string | string[] }): string[] => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);

export const allActions = (template: Template, name: string): string[] => roleStatements(template, name).flatMap(actionsOf);

/** Whether a CloudFormation value (Ref/GetAtt/Join/ImportValue tree) mentions the given string anywhere. */
export const mentions = (value: unknown, needle: string): boolean => JSON.stringify(value).includes(needle);

export interface MethodSummary {
  logicalId: string;
  apiLogicalId: string;
  path: string;
  httpMethod: string;
  properties: Record<string, any>;
}

/** Every API Gateway method of a template with its full resource path, rebuilt from the
 * template's own AWS::ApiGateway::Resource tree (parent ids and path parts). */
export function methodsOf(template: Template): MethodSummary[] {
  const resources = resourcesOf(template, 'AWS::ApiGateway::Resource');
  const pathOf = (resourceId: any): string => {
    if (resourceId['Fn::GetAtt']?.[1] === 'RootResourceId') return '/';
    const resource = resources[resourceId.Ref]!;
    const parent = pathOf(resource.Properties!.ParentId);
    return `${parent === '/' ? '' : parent}/${resource.Properties!.PathPart}`;
  };
  return Object.entries(resourcesOf(template, 'AWS::ApiGateway::Method')).map(([logicalId, method]) => ({
    logicalId,
    apiLogicalId: method.Properties!.RestApiId.Ref,
    path: pathOf(method.Properties!.ResourceId),
    httpMethod: method.Properties!.HttpMethod,
    properties: method.Properties!,
  }));
}
