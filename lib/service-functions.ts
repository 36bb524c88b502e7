/**
 * One Lambda function per function definition: its environment (the resources its definition
 * grants, named by the variables of the runtime contract) and its least-privilege grants, both
 * straight from `runtime-contract/resource-definitions.ts`.
 */
import { Annotations, Tags, type Stack } from 'aws-cdk-lib';
import { bundlingSkipped, findMissingEntries, physicalFunctionName, ServiceFunction } from './constructs/service-function';
import {
  deadLetterEnvVarOf,
  functions,
  queueSourceEnvVar,
  queues,
  tableGrantOf,
  tables,
  type Access,
  type FunctionDefinition,
  type FunctionName,
  type TableName,
} from '../runtime-contract/resource-definitions';
import { queueOfSourceIn } from './queue-event-sources';
import type { PlatformSettings } from './settings';
import type { StatefulResources } from './stateful-stack';
import { pascal } from './naming';
import { grantTokenKey } from './token-key-grants';

/** Every function of the definitions, created in the stack's scope (`<Name>Function`). */
export function createServiceFunctions(
  stack: Stack,
  stateful: StatefulResources,
  settings: PlatformSettings,
  entryRoot: string | undefined,
): Record<FunctionName, ServiceFunction> {
  const functionNames = Object.keys(functions) as FunctionName[];
  assertUpstreamTimeoutFits(settings);
  checkEntries(stack, functionNames, settings, entryRoot);
  return Object.fromEntries(functionNames.map((name) => [name, createServiceFunction(stack, name, functions[name], stateful, settings, entryRoot)])) as Record<
    FunctionName,
    ServiceFunction
  >;
}

/** Bundling needs every entry file; skipped bundling is said (a warning when asked for explicitly). */
function checkEntries(stack: Stack, functionNames: FunctionName[], settings: PlatformSettings, entryRoot: string | undefined): void {
  const missingEntries = findMissingEntries(functionNames, entryRoot);
  if (!bundlingSkipped(stack, settings.skipBundling)) {
    if (missingEntries.length > 0) {
      throw new Error(`Cannot bundle: Lambda entry files missing: ${missingEntries.join(', ')}. Synthesize with -c skipBundling=true until they exist.`);
    }
    return;
  }
  const message = `Bundling skipped: every function carries placeholder code that fails when invoked.${
    missingEntries.length > 0 ? ` Entries not written yet: ${missingEntries.join(', ')}.` : ''
  }`;
  // Explicit skipBundling deserves a warning (this template must not be deployed); a stack
  // the CLI merely did not select for bundling is not being deployed anyway.
  if (settings.skipBundling) Annotations.of(stack).addWarningV2('platform:bundlingSkipped', message);
  else Annotations.of(stack).addInfo(message);
}

function createServiceFunction(
  stack: Stack,
  name: FunctionName,
  definition: FunctionDefinition,
  stateful: StatefulResources,
  settings: PlatformSettings,
  entryRoot: string | undefined,
): ServiceFunction {
  const fn = new ServiceFunction(stack, `${pascal(name)}Function`, {
    name,
    definition,
    functionName: physicalFunctionName(stack.stackName, name),
    environment: environmentOf(definition, stateful, settings),
    logLevel: settings.logLevel,
    skipBundling: settings.skipBundling,
    root: entryRoot,
  });
  Tags.of(fn).add('function', name);
  grantDefinedAccess(fn, name, definition, stateful);
  return fn;
}

/** The platform's variables and those naming what the definition grants. */
function environmentOf(definition: FunctionDefinition, stateful: StatefulResources, settings: PlatformSettings): Record<string, string> {
  const environment: Record<string, string> = {
    SERVICE_NAME: settings.serviceName,
    SERVICE_VERSION: settings.serviceVersion,
    POWERTOOLS_SERVICE_NAME: settings.serviceName,
    POWERTOOLS_METRICS_NAMESPACE: settings.metricsNamespace,
    LOG_LEVEL: settings.logLevel,
    POWERTOOLS_LOG_LEVEL: settings.logLevel,
  };
  for (const tableName of Object.keys(definition.tables) as TableName[]) environment[tables[tableName].envVar] = stateful.tables[tableName].tableName;
  for (const queueName of definition.sendsTo) environment[queues[queueName].envVar] = stateful.queues[queueName].queueUrl;
  for (const source of definition.receivesFrom ?? []) environment[queueSourceEnvVar(source)] = queueOfSourceIn(stateful, source).queueUrl;
  for (const queueName of definition.deadLettersOf ?? []) environment[deadLetterEnvVarOf(queueName)] = stateful.deadLetterQueues[queueName].queueUrl;
  if (definition.tokenKey) environment.TOKEN_KMS_KEY_ID = stateful.tokenKey.keyArn;
  if (definition.callsUpstream) {
    environment.GRAPH_API_BASE_URL = settings.upstream.baseUrl;
    environment.GRAPH_API_VERSION = settings.upstream.version;
    environment.UPSTREAM_TIMEOUT_MS = String(settings.upstream.timeoutMs);
  }
  return environment;
}

/** Least privilege, straight from the definition (queue consumers get theirs with their event source). */
function grantDefinedAccess(fn: ServiceFunction, name: FunctionName, definition: FunctionDefinition, stateful: StatefulResources): void {
  const tableAccess = Object.entries(definition.tables) as Array<[TableName, Access]>;
  // The adapters' actions only (grantReadData would add Scan, ConditionCheckItem, DescribeTable and stream reads).
  for (const [tableName, access] of tableAccess) stateful.tables[tableName].grant(fn, ...checkedTableGrant(name, tableName, access));
  for (const queueName of definition.sendsTo) stateful.queues[queueName].grantSendMessages(fn);
  for (const queueName of definition.deadLettersOf ?? []) stateful.deadLetterQueues[queueName].grantSendMessages(fn);
  // Only under the definition's encryption-context purposes (token-key-grants.ts).
  grantTokenKey(fn, name, definition, stateful.tokenKey);
}

/** A function's actions on a table (`tableGrantOf`); an access its table's adapters cannot use is a definition error. */
function checkedTableGrant(name: FunctionName, table: TableName, access: Access): string[] {
  const grant = tableGrantOf(name, table);
  if (grant.length === 0) throw new Error(`${name}: ${access} access to table ${table} grants no action its adapters issue`);
  return grant;
}

/** The upstream HTTP timeout must leave the function time to answer after giving up. */
function assertUpstreamTimeoutFits(settings: PlatformSettings): void {
  for (const [name, definition] of Object.entries(functions)) {
    if (definition.callsUpstream && settings.upstream.timeoutMs >= definition.timeoutSeconds * 1000) {
      throw new Error(`upstreamTimeoutMs ${settings.upstream.timeoutMs} is not below the ${definition.timeoutSeconds}s timeout of ${name}`);
    }
  }
}
