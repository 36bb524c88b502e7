/**
 * A deployed platform's configuration read from its CloudFormation outputs: the operators' tools
 * (`npx wa-admin … --stack WhatsAppPlatform --region eu-west-1`, `npm run smoke -- --stack …`) need
 * no variables exported by hand. The names come from lib/stack-outputs.ts, which the stacks use too.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { environmentOfStackOutputs, stackNamesOf } from '../lib/stack-outputs';

export interface StackEnvironment {
  /** The variables the code reads (shared/config/app-config.ts), AWS_REGION included. */
  environment: Record<string, string>;
  /** Every output of both stacks by key (the surfaces' URLs among them: `BroadcastApiUrl`, `WebhooksApiUrl`, …). */
  outputs: Record<string, string>;
}

/** What DescribeStacks answers, as far as this reads it (a fake in tests). */
export interface StackDescriber {
  outputsOf(stackName: string): Promise<Record<string, string>>;
}

/** The CloudFormation client's StackDescriber for `region` (credentials from the SDK's default chain). */
export function cloudFormationDescriber(region: string): StackDescriber & { destroy(): void } {
  const client = new CloudFormationClient({ region });
  return {
    async outputsOf(stackName) {
      const answer = await client.send(new DescribeStacksCommand({ StackName: stackName }));
      const outputs = answer.Stacks?.[0]?.Outputs ?? [];
      return Object.fromEntries(outputs.flatMap((output) => (output.OutputKey && output.OutputValue ? [[output.OutputKey, output.OutputValue]] : [])));
    },
    destroy: () => client.destroy(),
  };
}

/**
 * The configuration of the deployment whose stacks are named `<prefix>-Stateful` and `<prefix>-Api`.
 *
 * @example
 * const { environment } = await readStackEnvironment(cloudFormationDescriber('eu-west-1'), { prefix: 'WhatsAppPlatform', region: 'eu-west-1' });
 * Object.assign(process.env, environment); // TENANCY_TABLE, OUTBOUND_QUEUE_URL, TOKEN_KMS_KEY_ID, … AWS_REGION
 */
export async function readStackEnvironment(describer: StackDescriber, options: { prefix: string; region: string }): Promise<StackEnvironment> {
  const names = stackNamesOf(options.prefix);
  const [stateful, api] = await Promise.all([describer.outputsOf(names.stateful), describer.outputsOf(names.api)]);
  const outputs = { ...stateful, ...api };
  return { environment: { ...environmentOfStackOutputs(outputs), AWS_REGION: options.region }, outputs };
}
