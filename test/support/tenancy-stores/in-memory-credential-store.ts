/** CredentialStore in memory, as DynamoDbCredentialStore: one credential per secret hash, revoked once, only within its organization. */
import { CredentialNotFoundError } from '../../../shared/tenancy/errors';
import type { Credential } from '../../../shared/tenancy/tenancy-entities';
import type { CredentialStore } from '../../../shared/tenancy/tenancy-stores';
import { inKeyOrder, stored, type InMemoryTenancyState } from './in-memory-tenancy-state';

export class InMemoryCredentialStore implements CredentialStore {
  constructor(private readonly state: InMemoryTenancyState) {}

  async putCredential(credential: Credential): Promise<void> {
    this.state.touch('putCredential', credential);
    if (this.state.credentials.has(credential.secretHash)) throw new Error('ConditionalCheckFailedException');
    this.state.credentials.set(credential.secretHash, stored(credential));
  }

  async getCredentialByHash(secretHash: string): Promise<Credential | undefined> {
    this.state.touch('getCredentialByHash');
    const credential = this.state.credentials.get(secretHash);
    return credential && stored(credential);
  }

  async listCredentials(organizationId: string): Promise<Credential[]> {
    this.state.touch('listCredentials');
    return [...this.state.credentials.values()]
      .filter((credential) => credential.organizationId === organizationId)
      .sort(inKeyOrder((credential) => credential.credentialId))
      .map(stored);
  }

  async findCredentialById(organizationId: string, credentialId: string): Promise<Credential | undefined> {
    this.state.touch('findCredentialById');
    const credential = [...this.state.credentials.values()].find(
      (candidate) => candidate.organizationId === organizationId && candidate.credentialId === credentialId,
    );
    return credential && stored(credential);
  }

  async revokeCredential(secretHash: string, organizationId: string, revokedAt: string): Promise<Credential> {
    this.state.touch('revokeCredential', { secretHash, revokedAt });
    const credential = this.state.credentials.get(secretHash);
    if (credential?.organizationId !== organizationId) throw new CredentialNotFoundError('(by hash)');
    credential.revokedAt ??= revokedAt;
    return stored(credential);
  }

  async holdGeneratedKeySlot(organizationId: string, holder: string, limit: number): Promise<boolean> {
    this.state.touch('holdGeneratedKeySlot', { organizationId, holder });
    const holders = this.state.generatedKeySlots.get(organizationId) ?? new Set<string>();
    if (!holders.has(holder) && holders.size >= limit) return false;
    holders.add(holder);
    this.state.generatedKeySlots.set(organizationId, holders);
    return true;
  }

  async releaseGeneratedKeySlot(organizationId: string, holder: string): Promise<void> {
    this.state.touch('releaseGeneratedKeySlot', { organizationId, holder });
    this.state.generatedKeySlots.get(organizationId)?.delete(holder);
  }

  async listGeneratedKeySlots(organizationId: string): Promise<string[]> {
    this.state.touch('listGeneratedKeySlots');
    return [...(this.state.generatedKeySlots.get(organizationId) ?? [])].sort();
  }
}
