import { createProviderStorage } from '../../../local/identity-provider/provider-storage';

describe("the local identity provider's storage", () => {
  it('finds what was stored until it expires, and by session uid', async () => {
    let now = 1_000_000;
    const sessions = createProviderStorage(() => now).adapterFor('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'acct_1' }, 60);
    expect(await sessions.find('s1')).toEqual({ uid: 'u1', accountId: 'acct_1' });
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'acct_1' });
    now += 61_000;
    expect(await sessions.find('s1')).toBeUndefined();
  });

  it('consumes and revokes by grant within its model', async () => {
    const storage = createProviderStorage();
    const codes = storage.adapterFor('AuthorizationCode');
    const refreshTokens = storage.adapterFor('RefreshToken');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await refreshTokens.upsert('r1', { grantId: 'g1' }, 60);
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
    await codes.revokeByGrantId('g1');
    expect(await codes.find('c1')).toBeUndefined();
    expect(await refreshTokens.find('r1')).toEqual({ grantId: 'g1' });
  });

  it("ends an account's sessions: its sessions, grants and every token of those grants, nobody else's", async () => {
    const storage = createProviderStorage();
    await storage.adapterFor('Session').upsert('s1', { uid: 'u1', accountId: 'acct_1' });
    await storage.adapterFor('Grant').upsert('g1', { accountId: 'acct_1' });
    await storage.adapterFor('RefreshToken').upsert('r1', { grantId: 'g1' });
    await storage.adapterFor('Session').upsert('s2', { uid: 'u2', accountId: 'acct_2' });
    await storage.adapterFor('RefreshToken').upsert('r2', { grantId: 'g2', accountId: 'acct_2' });
    expect(storage.endSessionsOf('acct_1')).toBe(3);
    expect(await storage.adapterFor('RefreshToken').find('r1')).toBeUndefined();
    expect(await storage.adapterFor('Session').find('s2')).toBeDefined();
    expect(await storage.adapterFor('RefreshToken').find('r2')).toBeDefined();
  });
});
