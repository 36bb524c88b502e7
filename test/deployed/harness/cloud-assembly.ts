/**
 * Reads a synthesized cloud assembly (`cdk.out`): every stack's template, with CloudFormation's
 * intrinsic functions resolved to the names the local stand-ins give the resources.
 *
 * Nothing here knows the platform: tables, queues, functions, APIs and role policies are found
 * by resource type, so a resource another change adds to the CDK app is picked up as it is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface CfnResource {
  Type: string;
  Properties?: Record<string, Json>;
  Metadata?: Record<string, Json>;
}

export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: Json; Export?: { Name: Json } }>;
}

export interface StackTemplate {
  stackName: string;
  template: CfnTemplate;
}

export interface CloudAssembly {
  directory: string;
  stacks: StackTemplate[];
}

export const localAccount = '000000000000';
export const localRegion = 'us-east-1';

/** The stacks of a `cdk.out` folder, as its manifest lists them. */
export function readCloudAssembly(directory: string): CloudAssembly {
  const manifest = JSON.parse(readFileSync(join(directory, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile: string; stackName?: string } }>;
  };
  const stacks = Object.entries(manifest.artifacts)
    .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack' && artifact.properties)
    .map(([id, artifact]) => ({
      stackName: artifact.properties!.stackName ?? id,
      template: JSON.parse(readFileSync(join(directory, artifact.properties!.templateFile), 'utf8')) as CfnTemplate,
    }));
  return { directory, stacks };
}

/** What a logical resource stands for locally: its `Ref` value and its attributes (`Fn::GetAtt`). */
export interface LocalResource {
  ref: string;
  attributes?: Record<string, string>;
}

/**
 * Resolves intrinsic functions (Ref, Fn::GetAtt, Fn::Join, Fn::Sub, Fn::Select, Fn::Split,
 * Fn::ImportValue) against the local stand-ins. A resource without a stand-in resolves to its
 * logical id (Ref) or a made-up ARN of it (GetAtt), enough to compare ARNs in policies.
 */
export class IntrinsicResolver {
  private readonly exports = new Map<string, { stack: StackTemplate; value: Json }>();

  constructor(
    private readonly assembly: CloudAssembly,
    private readonly locals: ReadonlyMap<string, LocalResource>,
  ) {
    for (const stack of assembly.stacks) {
      for (const output of Object.values(stack.template.Outputs ?? {})) {
        if (output.Export) this.exports.set(String(this.resolve(output.Export.Name, stack)), { stack, value: output.Value });
      }
    }
  }

  resolve(value: Json | undefined, stack: StackTemplate): Json {
    if (value === undefined || value === null || typeof value !== 'object') return value ?? null;
    if (Array.isArray(value)) return value.map((item) => this.resolve(item, stack));
    const keys = Object.keys(value);
    if (keys.length === 1) {
      const [fn] = keys as [string];
      const argument = value[fn]!;
      switch (fn) {
        case 'Ref':
          return this.ref(String(argument), stack);
        case 'Fn::GetAtt': {
          const [logicalId, attribute] = (Array.isArray(argument) ? argument : String(argument).split('.')) as [string, string];
          return this.getAtt(logicalId, attribute, stack);
        }
        case 'Fn::Join': {
          const [separator, parts] = argument as [string, Json[]];
          return (this.resolve(parts, stack) as Json[]).map(String).join(separator);
        }
        case 'Fn::Select': {
          const [index, list] = argument as [Json, Json];
          return (this.resolve(list, stack) as Json[])[Number(this.resolve(index, stack))] ?? null;
        }
        case 'Fn::Split': {
          const [separator, text] = argument as [string, Json];
          return String(this.resolve(text, stack)).split(separator);
        }
        case 'Fn::Sub': {
          const [text, variables] = (Array.isArray(argument) ? argument : [argument, {}]) as [string, Record<string, Json>];
          return text.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
            if (variables[name] !== undefined) return String(this.resolve(variables[name], stack));
            const [logicalId, attribute] = name.split('.') as [string, string | undefined];
            return String(attribute ? this.getAtt(logicalId, attribute, stack) : this.ref(logicalId, stack));
          });
        }
        case 'Fn::ImportValue': {
          const name = String(this.resolve(argument, stack));
          const exported = this.exports.get(name);
          if (!exported) throw new Error(`Fn::ImportValue: no stack exports ${name}`);
          return this.resolve(exported.value, exported.stack);
        }
      }
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.resolve(item, stack)]));
  }

  private ref(logicalId: string, stack: StackTemplate): string {
    switch (logicalId) {
      case 'AWS::Region':
        return localRegion;
      case 'AWS::AccountId':
        return localAccount;
      case 'AWS::Partition':
        return 'aws';
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
      case 'AWS::StackName':
        return stack.stackName;
    }
    return this.locals.get(`${stack.stackName}/${logicalId}`)?.ref ?? logicalId;
  }

  private getAtt(logicalId: string, attribute: string, stack: StackTemplate): string {
    const local = this.locals.get(`${stack.stackName}/${logicalId}`)?.attributes?.[attribute];
    if (local !== undefined) return local;
    const type = stack.template.Resources[logicalId]?.Type ?? 'AWS::Unknown::Resource';
    const service = type.split('::')[1]!.toLowerCase();
    return `arn:aws:${service}:${localRegion}:${localAccount}:${logicalId}${attribute === 'Arn' ? '' : `/${attribute}`}`;
  }
}

/** Every resource of a type across the assembly, with its stack. */
export function resourcesOfType(assembly: CloudAssembly, type: string): Array<{ stack: StackTemplate; logicalId: string; resource: CfnResource }> {
  return assembly.stacks.flatMap((stack) =>
    Object.entries(stack.template.Resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([logicalId, resource]) => ({ stack, logicalId, resource })),
  );
}

/** `stack/logicalId`, the key of a resource across stacks. */
export const resourceKey = (stack: StackTemplate, logicalId: string): string => `${stack.stackName}/${logicalId}`;
