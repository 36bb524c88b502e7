/**
 * The organization administration and generic v1 routes: Bearer credentials checked by the
 * group's function (no API key, no authorizer, no usage plan), the right functions, and the
 * inbox table granted only to the v1 function.
 */
import type { CfnElement } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { functions } from '../../runtime-contract/resource-definitions';
import { routes } from '../../runtime-contract/all-routes';
import { resourcePath, type RestApiSurfaceName as SurfaceName } from '../../runtime-contract/route-manifest';
import { methodsOf, synthesizePlatform, type MethodSummary, type SynthesizedPlatform } from './support/platform';

let synth: SynthesizedPlatform;
let template: Template;
let methods: MethodSummary[];

beforeAll(() => {
  synth = synthesizePlatform();
  template = synth.api;
  methods = methodsOf(template);
});

const apiId = (surface: SurfaceName) => synth.platform.api.getLogicalId(synth.platform.api.surfaceApis[surface].api.node.defaultChild as CfnElement);

const expected: Record<'organization' | 'v1', { auth: string; group: string; paths: string[] }> = {
  organization: { auth: 'organization-token', group: 'organization-admin', paths: ['POST /organizations/public/remove-employee-bulk'] },
  v1: {
    auth: 'v1-api-key',
    group: 'v1-inbox',
    paths: [
      'GET /contacts',
      'POST /contacts',
      'GET /contacts/{contactId}',
      'GET /conversations',
      'POST /conversations',
      'GET /conversations/{conversationId}',
      'PATCH /conversations/{conversationId}',
      'GET /opt-outs',
      'POST /opt-outs',
      'DELETE /opt-outs/{phoneNumber}',
    ],
  },
};

describe.each(Object.entries(expected) as Array<['organization' | 'v1', (typeof expected)['v1']]>)('surface %s', (surface, { auth, group, paths }) => {
  const own = () => routes.filter((route) => route.surface === surface);

  it('has exactly its routes, each authenticated by its Bearer credential in the function', () => {
    expect(
      own()
        .map((route) => `${route.method} ${route.path}`)
        .sort(),
    ).toEqual([...paths].sort());
    for (const route of own()) {
      expect(route.auth).toBe(auth);
      expect(route.group).toBe(group);
      const method = methods.find(
        (candidate) => candidate.apiLogicalId === apiId(surface) && candidate.path === resourcePath(route) && candidate.httpMethod === route.method,
      );
      expect(method).toBeDefined();
      // No API key (Bearer tokens are not usage-plan keys) and no gateway authorizer: the function verifies the credential.
      expect(method!.properties.ApiKeyRequired === true).toBe(false);
      expect(method!.properties.AuthorizationType).toBe('NONE');
      expect(method!.properties.AuthorizerId).toBeUndefined();
    }
  });
});

it('words every 400 and 5xx of remove-employee-bulk as the contract does', () => {
  const route = routes.find((candidate) => candidate.operation === 'removeEmployeeBulk')!;
  expect(route.badRequestMessage).toBe('No email IDs provided');
  expect(route.serverErrorMessage).toBe('Something went wrong while removing employees');
});

it('grants the inbox table to the v1 function, to delivery-events (inbound messages), to broadcast-audiences (saved audiences), to read the 24-hour window, to broadcast-send, to read opt-outs at send time, to the chunk worker and the single-sender, and to read audiences, contacts and opt-outs, to the campaign expander and the campaigns group (its dry run)', () => {
  // chunk-worker and single-sender (the same consumer) read the opt-out list again at send time (docs/BROADCAST.md "Opt-outs at send time").
  const inboxGrants: Record<string, string> = {
    'v1-inbox': 'readWrite',
    'delivery-events': 'readWrite',
    'broadcast-send': 'read',
    'chunk-worker': 'read',
    'single-sender': 'read',
    'broadcast-audiences': 'readWrite',
    'broadcast-campaigns': 'read',
    'campaign-expander': 'read',
  };
  for (const [name, definition] of Object.entries(functions)) {
    expect(definition.tables.inbox).toBe(inboxGrants[name]);
  }
  expect(functions['organization-admin'].tables).toEqual({ tenancy: 'readWrite', rateLimits: 'readWrite', audit: 'write' });
  expect(functions['v1-inbox'].tables.tenancy).toBe('read');
});
