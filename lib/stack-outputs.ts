/**
 * The names of the stacks' outputs and the environment they stand for: defined once, so the stacks
 * (which create the outputs) and the operators' tools (which read a deployed stack's outputs
 * instead of asking for nine variables by hand: `npx wa-admin … --stack <prefix>`) cannot drift.
 */
import { deadLetterEnvVarOf, queues, tables, type QueueName, type TableName } from '../runtime-contract/resource-definitions';
import { pascal } from './naming';

/** The output of each resource a configuration names (logical id = OutputKey of DescribeStacks). */
export const stackOutputNames = {
  table: (name: TableName): string => `${pascal(name)}TableName`,
  queue: (name: QueueName): string => `${pascal(name)}QueueUrl`,
  deadLetterQueue: (name: QueueName): string => `${pascal(name)}DeadLetterQueueUrl`,
  tokenKey: 'UpstreamTokenKeyArn',
  broadcastUsagePlan: 'BroadcastUsagePlanId',
  surfaceUrl: (surface: string): string => `${pascal(surface)}ApiUrl`,
  peopleUserPool: 'PeopleUserPoolId',
  peopleSignInDomain: 'PeopleSignInDomain',
  consoleSignInClient: 'ConsoleSignInClientId',
  consoleUrl: 'ConsoleUrl',
  /** Tracked links' base (CLICK_BASE_URL; docs/OUTCOMES.md "Tracked links"). */
  clickBaseUrl: 'ClickBaseUrl',
} as const;

/** The two stacks of a deployment named by its prefix (lib/platform.ts; context `stackNamePrefix`). */
export const stackNamesOf = (prefix: string): { stateful: string; api: string } => ({ stateful: `${prefix}-Stateful`, api: `${prefix}-Api` });

/**
 * The environment variables the code reads (shared/config/app-config.ts) from a deployment's
 * outputs, both stacks' merged; an output that is missing leaves its variable unset.
 *
 * @example
 * environmentOfStackOutputs({ TenancyTableName: 'WhatsAppPlatform-Stateful-Tenancy1A2B', UpstreamTokenKeyArn: 'arn:aws:kms:…' });
 * // { TENANCY_TABLE: 'WhatsAppPlatform-Stateful-Tenancy1A2B', TOKEN_KMS_KEY_ID: 'arn:aws:kms:…' }
 */
export function environmentOfStackOutputs(outputs: Readonly<Record<string, string>>): Record<string, string> {
  const pairs: Array<[string, string | undefined]> = [
    ...(Object.keys(tables) as TableName[]).map((name): [string, string | undefined] => [tables[name].envVar, outputs[stackOutputNames.table(name)]]),
    ...(Object.keys(queues) as QueueName[]).flatMap(
      (name): Array<[string, string | undefined]> => [
        [queues[name].envVar, outputs[stackOutputNames.queue(name)]],
        [deadLetterEnvVarOf(name), outputs[stackOutputNames.deadLetterQueue(name)]],
      ],
    ),
    ['TOKEN_KMS_KEY_ID', outputs[stackOutputNames.tokenKey]],
    ['BROADCAST_USAGE_PLAN_ID', outputs[stackOutputNames.broadcastUsagePlan]],
    // The admin CLI's invite-person and remove-person manage Cognito accounts (docs/OPERATIONS.md "People").
    ['PEOPLE_USER_POOL_ID', outputs[stackOutputNames.peopleUserPool]],
    // The operators' template checks mark tracked links as the functions do (docs/OUTCOMES.md "Tracked links").
    ['CLICK_BASE_URL', outputs[stackOutputNames.clickBaseUrl]],
  ];
  return Object.fromEntries(pairs.filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== ''));
}
