import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authorizeRequest, stageWildcardOf } from '../../../functions/request-authorizer/request-authorizer.handler';
import { IdentityProviderUnavailableError, InvalidPersonTokenError } from '../../../shared/people/errors';
import { personIdOf } from '../../../shared/people/person';
import type { PersonTokenVerifier } from '../../../shared/people/ports';
import type { Membership } from '../../../shared/tenancy/tenancy-entities';
import { InMemoryMembershipStore } from '../../support/tenancy-stores/in-memory-membership-store';
import { InMemoryTenancyState } from '../../support/tenancy-stores/in-memory-tenancy-state';

const methodArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/api/v2/broadcast/public/campaigns';

/** Tokens are the email they stand for, `bad` is refused, `down` finds the issuer unreachable. */
const verifier = (): PersonTokenVerifier & { calls: number } => {
  const fake = {
    calls: 0,
    async verify(token: string) {
      fake.calls += 1;
      if (token === 'down') throw new IdentityProviderUnavailableError('its signing keys could not be read');
      if (!token.includes('@')) throw new InvalidPersonTokenError();
      return { issuer: 'https://issuer.example', subject: `sub-${token}`, email: token, expiresAt: new Date(Date.now() + 60_000) };
    },
  };
  return fake;
};

const membership = (organizationId: string, email: string, key?: string): Membership => ({
  organizationId,
  email,
  role: 'member',
  joinedAt: '2026-01-01T00:00:00.000Z',
  consoleRole: 'campaign-manager',
  ...(key ? { usagePlanKey: { id: `id-${key}`, value: key } } : {}),
});

const eventOf = (headers: Record<string, string>): APIGatewayRequestAuthorizerEvent =>
  ({ type: 'REQUEST', methodArn, headers, resource: '/', path: '/', httpMethod: 'GET' }) as unknown as APIGatewayRequestAuthorizerEvent;

function setUp(memberships: Membership[] = []) {
  const state = new InMemoryTenancyState();
  const store = new InMemoryMembershipStore(state);
  for (const item of memberships) state.memberships.set(`${item.organizationId}#${item.email}`, item);
  const tokens = verifier();
  return { state, tokens, ports: { verifier: tokens, memberships: store } };
}

describe('request authorizer', () => {
  it('passes an x-api-key on as the usage identifier key without reading anything (the usage plan checks it, the function authenticates it)', async () => {
    const { state, tokens, ports } = setUp();
    const { result, kind } = await authorizeRequest(ports, eventOf({ 'X-Api-Key': 'bk_live_abc', Authorization: 'Bearer ana@example.com' }));
    expect(kind).toBe('api-key');
    expect(result).toEqual({
      principalId: 'api-key',
      context: {},
      usageIdentifierKey: 'bk_live_abc',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*' }],
      },
    });
    expect(tokens.calls).toBe(0);
    expect(state.callCount('listMembershipsOfUser')).toBe(0);
  });

  it("meters a signed-in member on their membership's usage-plan key, naming the person and organization", async () => {
    const { ports } = setUp([membership('org_a', 'ana@example.com', 'person-key-a')]);
    const { result, kind } = await authorizeRequest(ports, eventOf({ authorization: 'Bearer ana@example.com' }));
    const personId = personIdOf('org_a', 'ana@example.com');
    expect(kind).toBe('person');
    expect(result).toMatchObject({ principalId: personId, usageIdentifierKey: 'person-key-a', context: { organizationId: 'org_a', personId } });
    expect(JSON.stringify(result)).not.toContain('ana@example.com');
  });

  it('takes the organization the x-organization-id header names for a member of several; one they are not a member of is refused', async () => {
    const { ports } = setUp([membership('org_a', 'ana@example.com', 'key-a'), membership('org_b', 'ana@example.com', 'key-b')]);
    const chosen = await authorizeRequest(ports, eventOf({ authorization: 'Bearer ana@example.com', 'x-organization-id': 'org_b' }));
    expect(chosen.result).toMatchObject({ usageIdentifierKey: 'key-b', context: { organizationId: 'org_b' } });
    await expect(authorizeRequest(ports, eventOf({ authorization: 'Bearer ana@example.com', 'x-organization-id': 'org_c' }))).rejects.toThrow(/^Unauthorized$/);
  });

  it('lets a member of several who named none through on their first key, so the function answers its 400 ORGANIZATION_CHOICE_REQUIRED', async () => {
    const { ports } = setUp([membership('org_b', 'ana@example.com', 'key-b'), membership('org_a', 'ana@example.com', 'key-a')]);
    const { result, kind } = await authorizeRequest(ports, eventOf({ authorization: 'Bearer ana@example.com' }));
    expect(kind).toBe('person-choosing');
    expect(result).toMatchObject({ principalId: 'person', usageIdentifierKey: 'key-a', context: {} });
  });

  it.each([
    ['no credential at all', {}],
    ['an Authorization that is not Bearer', { authorization: 'Basic YW5hOnB3' }],
    ['a token no issuer signed', { authorization: 'Bearer not-a-token' }],
    ['a valid token of nobody invited', { authorization: 'Bearer stranger@example.com' }],
    ['a member without a usage-plan key', { authorization: 'Bearer bo@example.com' }],
  ])('refuses %s with the literal Unauthorized (API Gateway: 401)', async (_, headers) => {
    const { ports } = setUp([membership('org_a', 'bo@example.com')]);
    await expect(authorizeRequest(ports, eventOf(headers))).rejects.toThrow(/^Unauthorized$/);
  });

  it('fails (not Unauthorized) when the identity provider or the store cannot answer: the gateway answers its authorizer failure, never a 401 for a valid person', async () => {
    const { state, ports } = setUp([membership('org_a', 'ana@example.com', 'key-a')]);
    await expect(authorizeRequest(ports, eventOf({ authorization: 'Bearer down' }))).rejects.toBeInstanceOf(IdentityProviderUnavailableError);
    state.failure = new Error('store unreachable');
    await expect(authorizeRequest(ports, eventOf({ authorization: 'Bearer ana@example.com' }))).rejects.toThrow('store unreachable');
  });

  it('allows every method of the stage (the policy is never cached, so it is never reused)', () => {
    expect(stageWildcardOf('arn:aws:execute-api:us-east-1:1:api9/prod/POST/api/v2/broadcast/public/campaigns/c1/launch')).toBe(
      'arn:aws:execute-api:us-east-1:1:api9/prod/*',
    );
  });
});
