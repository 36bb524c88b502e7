import { AdminCreateUserCommand, AdminUserGlobalSignOutCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoIdentityAccounts } from '../../../shared/adapters/cognito/cognito-identity-accounts';
import { localIdentityAccounts } from '../../../shared/adapters/oidc/local-identity-accounts';
import { IdentityProviderUnavailableError } from '../../../shared/people/errors';
import { callerView } from '../../../shared/people/who-am-i';

const named = (name: string) => Object.assign(new Error(name), { name });

describe('Cognito identity accounts', () => {
  const clientAnswering = (answer: (command: unknown) => unknown) => {
    const sent: unknown[] = [];
    const client = { send: async (command: unknown) => (sent.push(command), answer(command)) } as unknown as CognitoIdentityProviderClient;
    return { client, sent };
  };

  test('invites with AdminCreateUser (email verified, Cognito mails it); an existing user keeps their account', async () => {
    const { client, sent } = clientAnswering(() => ({}));
    expect(await new CognitoIdentityAccounts(client, 'pool_1').ensureAccount('ana@example.com')).toEqual({ delivery: 'email-sent-by-identity-provider' });
    const command = sent[0] as AdminCreateUserCommand;
    expect(command).toBeInstanceOf(AdminCreateUserCommand);
    expect(command.input).toMatchObject({
      UserPoolId: 'pool_1',
      Username: 'ana@example.com',
      UserAttributes: [
        { Name: 'email', Value: 'ana@example.com' },
        { Name: 'email_verified', Value: 'true' },
      ],
      DesiredDeliveryMediums: ['EMAIL'],
    });
    const existing = clientAnswering(() => Promise.reject(named('UsernameExistsException')));
    expect(await new CognitoIdentityAccounts(existing.client, 'pool_1').ensureAccount('ana@example.com')).toEqual({ delivery: 'managed-by-identity-provider' });
  });

  test("ends sessions with AdminUserGlobalSignOut; an unknown user has none; other failures are the provider's 503", async () => {
    const { client, sent } = clientAnswering(() => ({}));
    await new CognitoIdentityAccounts(client, 'pool_1').endSessions('ana@example.com');
    expect(sent[0]).toBeInstanceOf(AdminUserGlobalSignOutCommand);
    await new CognitoIdentityAccounts(clientAnswering(() => Promise.reject(named('UserNotFoundException'))).client, 'pool_1').endSessions('x@example.com');
    const throttled = clientAnswering(() => Promise.reject(named('TooManyRequestsException')));
    await expect(new CognitoIdentityAccounts(throttled.client, 'pool_1').ensureAccount('x@example.com')).rejects.toBeInstanceOf(
      IdentityProviderUnavailableError,
    );
  });
});

describe('local identity accounts', () => {
  test("speaks the admin contract with the secret; a new account's password is shown once", async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const answers = [
      new Response(JSON.stringify({ created: true, temporaryPassword: 'pw-1' })),
      new Response(JSON.stringify({ created: false })),
      new Response(null, { status: 204 }),
    ];
    const fetch = (async (url: string, init: RequestInit) => (calls.push({ url, init }), answers.shift()!)) as unknown as typeof globalThis.fetch;
    const accounts = localIdentityAccounts({ url: 'http://127.0.0.1:9/admin/', secret: 's3cret', fetch });
    expect(await accounts.ensureAccount('ana@example.com')).toEqual({ delivery: 'shown-once', temporaryPassword: 'pw-1' });
    expect(await accounts.ensureAccount('ana@example.com')).toEqual({ delivery: 'managed-by-identity-provider' });
    await accounts.endSessions('ana@example.com');
    expect(calls.map((call) => call.url)).toEqual([
      'http://127.0.0.1:9/admin/accounts',
      'http://127.0.0.1:9/admin/accounts',
      'http://127.0.0.1:9/admin/accounts/end-sessions',
    ]);
    expect(calls[0]!.init).toMatchObject({ method: 'POST', body: JSON.stringify({ email: 'ana@example.com' }), headers: { authorization: 'Bearer s3cret' } });
  });

  test("an error answer or no answer is the provider's 503", async () => {
    const failing = (async () => new Response('no', { status: 500 })) as unknown as typeof globalThis.fetch;
    await expect(localIdentityAccounts({ url: 'http://x', secret: 's', fetch: failing }).endSessions('a@b.co')).rejects.toBeInstanceOf(
      IdentityProviderUnavailableError,
    );
    const down = (async () => Promise.reject(new TypeError('fetch failed'))) as unknown as typeof globalThis.fetch;
    await expect(localIdentityAccounts({ url: 'http://x', secret: 's', fetch: down }).ensureAccount('a@b.co')).rejects.toBeInstanceOf(
      IdentityProviderUnavailableError,
    );
  });
});

describe('/me', () => {
  test('a person with their role; the organization key as admin; a sender-bound key as campaign manager', () => {
    expect(callerView({ organizationId: 'o', credentialId: 'person:psn_1', person: { personId: 'psn_1', email: 'a@b.co', role: 'viewer' } })).toEqual({
      organizationId: 'o',
      actor: 'person',
      role: 'viewer',
      personId: 'psn_1',
      email: 'a@b.co',
    });
    expect(callerView({ organizationId: 'o', credentialId: 'cred_1', scope: { kind: 'organization' } })).toEqual({
      organizationId: 'o',
      actor: 'api-key',
      role: 'admin',
      credentialId: 'cred_1',
    });
    expect(callerView({ organizationId: 'o', credentialId: 'cred_2', scope: { kind: 'sender', phoneNumber: '1555' } }).role).toBe('campaign-manager');
  });
});
