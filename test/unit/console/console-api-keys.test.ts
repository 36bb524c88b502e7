/** The API keys screen's model (console/model/api-keys.ts; docs/CONSOLE.md "API keys"): states, words, the revoke question, order, the address. */
import { activeFirst, apiKeyStateOf, originWords, revokeQuestion, scopeWords, type ApiKeyRow } from '../../../console/model/api-keys';
import type { Me } from '../../../console/model/roles';
import { routeOf } from '../../../console/model/route';

const now = new Date('2026-12-02T10:00:00.000Z');
const key = (credentialId: string, extra: Partial<ApiKeyRow> = {}): ApiKeyRow => ({
  credentialId,
  origin: 'organization-admin',
  createdAt: '2026-12-01T10:00:00.000Z',
  ...extra,
});

describe('the API keys screen', () => {
  it('has its own admin address', () => {
    expect(routeOf('#/api-keys')).toEqual({ page: 'api-keys' });
    expect(routeOf('#/api-keys/cred_1')).toEqual({ page: 'list' });
  });

  it('tells active, revoked and expired keys apart (revoked wins; an expiry in the future is still active)', () => {
    expect(apiKeyStateOf(key('cred_1'), now)).toBe('active');
    expect(apiKeyStateOf(key('cred_1', { expiresAt: '2026-12-03T00:00:00.000Z' }), now)).toBe('active');
    expect(apiKeyStateOf(key('cred_1', { expiresAt: '2026-12-02T10:00:00.000Z' }), now)).toBe('expired');
    expect(apiKeyStateOf(key('cred_1', { expiresAt: '2026-12-01T00:00:00.000Z', revokedAt: '2026-11-30T00:00:00.000Z' }), now)).toBe('revoked');
  });

  it('says who made a key and what it may use', () => {
    expect(originWords('operator')).toBe('Issued by an operator');
    expect(originWords('generate-key')).toBe('Generated for a sender number (generate-key)');
    expect(originWords('organization-admin')).toBe('Created here or through the API');
    expect(scopeWords({})).toBe('The whole organization');
    expect(scopeWords({ boundPhoneNumber: '15550100001' })).toBe('Only sender +15550100001');
  });

  it('warns before revoking the key the console is signed in with, and only then', () => {
    const signedInWithKey: Me = { organizationId: 'org_1', actor: 'api-key', role: 'admin', credentialId: 'cred_1' };
    const admin: Me = { organizationId: 'org_1', actor: 'person', role: 'admin', personId: 'psn_1', email: 'ana@example.com' };
    expect(revokeQuestion(key('cred_1'), signedInWithKey)).toBe(
      'Revoke cred_1? This is the key you are signed in with: you will be signed out. Back ends using it are refused at once.',
    );
    expect(revokeQuestion(key('cred_2'), signedInWithKey)).toBe('Revoke cred_2? Back ends using it are refused at once.');
    expect(revokeQuestion(key('cred_1'), admin)).toBe('Revoke cred_1? Back ends using it are refused at once.');
  });

  it('lists active keys first, each group in the API’s order (newest first)', () => {
    const keys = [
      key('cred_4'),
      key('cred_3', { revokedAt: '2026-12-01T12:00:00.000Z' }),
      key('cred_2'),
      key('cred_1', { expiresAt: '2026-12-01T00:00:00.000Z' }),
    ];
    expect(activeFirst(keys, now).map((row) => row.credentialId)).toEqual(['cred_4', 'cred_2', 'cred_3', 'cred_1']);
  });
});
