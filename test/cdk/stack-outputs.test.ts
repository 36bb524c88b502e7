/**
 * The operators' tools read a deployment's configuration from its outputs (scripts/stack-environment.ts):
 * every output the code needs exists in the synthesized templates under the name the reader asks for.
 */
import { parseAppConfig } from '../../shared/config/app-config';
import { queues, tables } from '../../runtime-contract/resource-definitions';
import { readStackEnvironment, type StackDescriber } from '../../scripts/stack-environment';
import { stackNamesOf } from '../../lib/stack-outputs';
import { synthesizePlatform, testRegion, type SynthesizedPlatform } from './support/platform';

let synth: SynthesizedPlatform;

beforeAll(() => {
  synth = synthesizePlatform();
});

/** DescribeStacks of a deployment of these templates: each output's value stands in as `value-of-<key>`. */
function describerOfTemplates(): StackDescriber & { asked: string[] } {
  const names = stackNamesOf('WhatsAppPlatform');
  // A URL output reads as a URL (the configuration checks CLICK_BASE_URL's form).
  const outputsOf = (template: typeof synth.stateful) =>
    Object.fromEntries(
      Object.keys(template.findOutputs('*')).map((key) => [key, key === 'ClickBaseUrl' ? 'https://value-of-clicks.example/l' : `value-of-${key}`]),
    );
  const byStack: Record<string, Record<string, string>> = { [names.stateful]: outputsOf(synth.stateful), [names.api]: outputsOf(synth.api) };
  const asked: string[] = [];
  return {
    asked,
    async outputsOf(stackName) {
      asked.push(stackName);
      const outputs = byStack[stackName];
      if (!outputs) throw new Error(`Stack with id ${stackName} does not exist`);
      return outputs;
    },
  };
}

describe("reading a deployment's configuration from its stack outputs", () => {
  it('finds every table, queue, the token key and the usage plan, and the result is a complete configuration', async () => {
    const describer = describerOfTemplates();
    const { environment, outputs } = await readStackEnvironment(describer, { prefix: 'WhatsAppPlatform', region: testRegion });
    expect(describer.asked.sort()).toEqual(['WhatsAppPlatform-Api', 'WhatsAppPlatform-Stateful']);

    for (const table of Object.values(tables)) expect(environment[table.envVar]).toMatch(/^value-of-\w+TableName$/);
    for (const queue of Object.values(queues)) expect(environment[queue.envVar]).toMatch(/^value-of-\w+QueueUrl$/);
    expect(environment).toMatchObject({
      TOKEN_KMS_KEY_ID: 'value-of-UpstreamTokenKeyArn',
      BROADCAST_USAGE_PLAN_ID: 'value-of-BroadcastUsagePlanId',
      AWS_REGION: testRegion,
    });
    expect(outputs).toHaveProperty('BroadcastApiUrl');

    const config = parseAppConfig(environment);
    expect(Object.values(config.tableNames).every((name) => name.startsWith('value-of-'))).toBe(true);
    expect(Object.values(config.queueUrls).every((url) => url.startsWith('value-of-'))).toBe(true);
    expect(config.tokenEncryption).toEqual({ kind: 'kms', keyId: 'value-of-UpstreamTokenKeyArn' });
  });

  it('names the stack it could not read', async () => {
    await expect(readStackEnvironment(describerOfTemplates(), { prefix: 'Elsewhere', region: testRegion })).rejects.toThrow(/Elsewhere-(Stateful|Api)/);
  });
});
