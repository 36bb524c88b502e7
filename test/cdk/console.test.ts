/** The campaign console on AWS: its two routes on the broadcast REST API (same origin as the API it calls), no key, its own function with no grants. */
import type { CfnElement } from 'aws-cdk-lib';
import { functions } from '../../runtime-contract/resource-definitions';
import { functionProperties, mentions, methodsOf, roleStatements, synthesizePlatform, type SynthesizedPlatform } from './support/platform';

let synth: SynthesizedPlatform;
beforeAll(() => {
  synth = synthesizePlatform();
});

it('serves the page and its files from the broadcast API without an API key, through the console function', () => {
  const broadcastApi = synth.platform.api.getLogicalId(synth.platform.api.surfaceApis.broadcast.api.node.defaultChild as CfnElement);
  const consoleMethods = methodsOf(synth.api).filter((method) => method.path.startsWith('/api/v2/console'));
  expect(consoleMethods.map((method) => `${method.httpMethod} ${method.path}`).sort()).toEqual(['GET /api/v2/console', 'GET /api/v2/console/assets/{file}']);
  for (const method of consoleMethods) {
    expect(method.apiLogicalId).toBe(broadcastApi);
    expect(method.properties.ApiKeyRequired ?? false).toBe(false);
    expect(method.properties.AuthorizationType).toBe('NONE');
    expect(mentions(method.properties.Integration, 'console')).toBe(true);
  }
});

it('gives the console function no table, queue or key: it serves files only', () => {
  expect(functionProperties(synth.api, 'console').MemorySize).toBe(functions.console.memoryMb);
  const actions = roleStatements(synth.api, 'console').flatMap((statement) => [statement.Action].flat());
  expect(actions.filter((action) => /^(dynamodb|sqs|kms):/.test(action))).toEqual([]);
});
