/**
 * People's sign-in on AWS (docs/PEOPLE.md "On AWS"): the user pool and its domain (stateful, retained),
 * the console's app client, the keyed methods' request authorizer and the broadcast API's key source,
 * the issuers every function accepts, and the rights of the functions that manage people.
 */
import type { CfnElement } from 'aws-cdk-lib';
import { functions, requestAuthorizer, type FunctionName } from '../../runtime-contract/resource-definitions';
import { requiresGatewayApiKey, resourcePath, serviceRoutes } from '../../runtime-contract/route-manifest';
import { routes } from '../../runtime-contract/all-routes';
import { peopleManagementActions } from '../../lib/people-sign-in';
import { readPeopleIssuers } from '../../lib/settings';
import { environmentOfStackOutputs } from '../../lib/stack-outputs';
import {
  allActions,
  functionLogicalId,
  functionProperties,
  mentions,
  methodsOf,
  resourcesOf,
  synthesizePlatform,
  type SynthesizedPlatform,
} from './support/platform';

// The grant follows the flag: broadcast-people says it manages people, and so does organization-admin here, which does not.
const managing: readonly FunctionName[] = ['broadcast-people', 'organization-admin'];
functions['organization-admin'] = { ...functions['organization-admin'], managesPeople: true };

const external = { issuer: 'https://login.example.com/tenant-1/v2.0', audience: 'console-client-at-entra' };
let synth: SynthesizedPlatform;

beforeAll(() => {
  synth = synthesizePlatform({ peopleIssuers: JSON.stringify([external]), cognitoDomainPrefix: 'acme-campaigns' });
});

const only = (resources: Record<string, { Properties?: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string }>) => {
  const values = Object.values(resources);
  expect(values).toHaveLength(1);
  return values[0]!;
};
const broadcastApiId = () => synth.platform.api.getLogicalId(synth.platform.api.surfaceApis.broadcast.api.node.defaultChild as CfnElement);

describe('the people user pool (stateful stack)', () => {
  it('signs people in by email, invitation only, with a 12-character password of every class, optional TOTP MFA and email recovery', () => {
    const pool = only(resourcesOf(synth.stateful, 'AWS::Cognito::UserPool'));
    expect(pool.Properties).toMatchObject({
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Policies: { PasswordPolicy: { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true } },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      DeletionProtection: 'ACTIVE',
    });
  });

  it('is retained like the tables (it holds the accounts, passwords and MFA devices)', () => {
    const pool = only(resourcesOf(synth.stateful, 'AWS::Cognito::UserPool'));
    expect(pool.DeletionPolicy).toBe('Retain');
    expect(pool.UpdateReplacePolicy).toBe('Retain');
  });

  it('has its hosted sign-in domain with the prefix of the cognitoDomainPrefix context, and outputs the pool id and the domain', () => {
    expect(only(resourcesOf(synth.stateful, 'AWS::Cognito::UserPoolDomain')).Properties!.Domain).toBe('acme-campaigns');
    expect(Object.keys(synth.stateful.findOutputs('*'))).toEqual(expect.arrayContaining(['PeopleUserPoolId', 'PeopleSignInDomain']));
  });

  it('derives a domain prefix from the stack when none is configured', () => {
    const derived = synthesizePlatform();
    const domain = only(resourcesOf(derived.stateful, 'AWS::Cognito::UserPoolDomain')).Properties!.Domain;
    expect(JSON.stringify(domain)).toContain('whatsappplatform-stateful');
    expect(mentions(domain, 'AWS::StackId')).toBe(true);
  });
});

describe("the console's app client", () => {
  it('is public (no secret), authorization code only with openid email profile, back to the console page, 1 h tokens, 8 h refresh, no user-existence errors', () => {
    const client = only(resourcesOf(synth.api, 'AWS::Cognito::UserPoolClient')).Properties!;
    expect(client.GenerateSecret).toBe(false);
    expect(client.AllowedOAuthFlows).toEqual(['code']);
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect([...client.AllowedOAuthScopes].sort()).toEqual(['email', 'openid', 'profile']);
    expect(client.ExplicitAuthFlows).toEqual(['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']);
    expect(client.PreventUserExistenceErrors).toBe('ENABLED');
    expect(client).toMatchObject({
      AccessTokenValidity: 60,
      IdTokenValidity: 60,
      RefreshTokenValidity: 480,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
    });
    for (const urls of [client.CallbackURLs, client.LogoutURLs]) {
      expect(urls).toHaveLength(1);
      expect(mentions(urls[0], broadcastApiId())).toBe(true);
      expect(JSON.stringify(urls[0])).toContain('/prod/api/v2/console"');
    }
  });

  it('outputs the console URL and the client id', () => {
    const outputs = synth.api.findOutputs('*');
    expect(mentions(outputs.ConsoleUrl!.Value, broadcastApiId())).toBe(true);
    expect(outputs.ConsoleSignInClientId).toBeDefined();
  });
});

describe("the keyed methods' request authorizer", () => {
  it('is one REQUEST authorizer of the broadcast API, the request-authorizer function, without identity sources or a result cache', () => {
    const authorizers = resourcesOf(synth.api, 'AWS::ApiGateway::Authorizer');
    const authorizer = only(authorizers).Properties!;
    expect(authorizer).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0, RestApiId: { Ref: broadcastApiId() } });
    expect(authorizer.IdentitySource).toBeUndefined();
    expect(mentions(authorizer.AuthorizerUri, functionLogicalId(synth.api, requestAuthorizer.functionName))).toBe(true);
  });

  it('guards every gateway-keyed method, and no other', () => {
    const authorizerId = Object.keys(resourcesOf(synth.api, 'AWS::ApiGateway::Authorizer'))[0]!;
    const methods = methodsOf(synth.api);
    const keyed = routes.filter(requiresGatewayApiKey);
    expect(keyed.length).toBeGreaterThan(20);
    for (const route of routes.filter((candidate) => candidate.surface !== 'webhooks')) {
      const method = methods.find(
        (candidate) =>
          candidate.path === resourcePath(route) &&
          candidate.httpMethod === route.method &&
          mentions(
            candidate.apiLogicalId,
            synth.platform.api.getLogicalId(synth.platform.api.surfaceApis[route.surface as 'broadcast'].api.node.defaultChild as CfnElement),
          ),
      );
      expect(method).toBeDefined();
      if (requiresGatewayApiKey(route))
        expect(method!.properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId }, ApiKeyRequired: true });
      else expect(method!.properties.AuthorizationType).toBe('NONE');
    }
  });

  it("leaves the console's page and files open (no key, no authorizer): the page signs people in itself", () => {
    const consoleRoutes = serviceRoutes.filter((route) => route.group === 'console');
    expect(consoleRoutes.map((route) => route.path)).toEqual(['/console', '/console/assets/{file}']);
    const methods = methodsOf(synth.api);
    for (const route of consoleRoutes) {
      const method = methods.find((candidate) => candidate.path === resourcePath(route) && candidate.apiLogicalId === broadcastApiId())!;
      expect(method.properties).toMatchObject({ AuthorizationType: 'NONE', ApiKeyRequired: false });
    }
  });

  it('is small: 256 MB, tenancy read only', () => {
    expect(functionProperties(synth.api, requestAuthorizer.functionName).MemorySize).toBe(256);
    expect(
      allActions(synth.api, requestAuthorizer.functionName)
        .filter((action) => action.startsWith('dynamodb:'))
        .sort(),
    ).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
  });
});

describe('issuers and people management', () => {
  it('gives every function PEOPLE_OIDC_ISSUERS: the pool (its client as audience, userinfo) first, then the peopleIssuers context', () => {
    for (const name of Object.keys(functions) as FunctionName[]) {
      const value = functionProperties(synth.api, name).Environment.Variables.PEOPLE_OIDC_ISSUERS;
      const text = JSON.stringify(value);
      expect(text).toContain('https://cognito-idp.eu-west-1.');
      expect(text).toMatch(/userInfo\W+true/);
      expect(text.indexOf('cognito-idp')).toBeLessThan(text.indexOf(external.issuer));
      expect(text).toContain(external.audience);
    }
  });

  it('gives PEOPLE_USER_POOL_ID and the four account actions on the pool only to functions that manage people', () => {
    for (const name of Object.keys(functions) as FunctionName[]) {
      const variables = functionProperties(synth.api, name).Environment.Variables;
      const cognitoActions = allActions(synth.api, name).filter((action) => action.startsWith('cognito-idp:'));
      if (managing.includes(name)) {
        expect(variables.PEOPLE_USER_POOL_ID).toBeDefined();
        expect(cognitoActions.sort()).toEqual([...peopleManagementActions].sort());
      } else {
        expect(variables.PEOPLE_USER_POOL_ID).toBeUndefined();
        expect(cognitoActions).toEqual([]);
      }
    }
  });
});

describe('settings and outputs', () => {
  it('reads peopleIssuers as a JSON array of https issuers with an audience, naming the broken entry', () => {
    expect(readPeopleIssuers(undefined)).toEqual([]);
    expect(readPeopleIssuers(JSON.stringify([external, { ...external, userInfo: true }]))).toEqual([external, { ...external, userInfo: true }]);
    expect(readPeopleIssuers([external])).toEqual([external]);
    expect(() => readPeopleIssuers('{not json')).toThrow(/peopleIssuers must be a JSON array/);
    expect(() => readPeopleIssuers(JSON.stringify([external, { issuer: 'http://login.example.com', audience: 'x' }]))).toThrow(
      /peopleIssuers\[1\]\.issuer must be an https URL/,
    );
    expect(() => readPeopleIssuers(JSON.stringify([{ issuer: external.issuer }]))).toThrow(/peopleIssuers\[0\]\.audience/);
  });

  it('refuses a cognitoDomainPrefix Cognito would refuse', () => {
    expect(() => synthesizePlatform({ cognitoDomainPrefix: 'my-aws-console' })).toThrow(/cognitoDomainPrefix/);
  });

  it("gives the operators' tools PEOPLE_USER_POOL_ID from the stateful stack's output", () => {
    expect(environmentOfStackOutputs({ PeopleUserPoolId: 'eu-west-1_AbC123' })).toEqual({ PEOPLE_USER_POOL_ID: 'eu-west-1_AbC123' });
  });
});
