/**
 * The API keys screen's words (docs/CONSOLE.md "API keys"): the shapes of `GET /api-keys` and
 * `POST /api-keys` (docs/PEOPLE.md "API keys") and how a key reads on the page.
 */
import type { ApiKeyView as ApiKeyRow } from '../../shared/tenancy/api-key-view';
import type { Me } from './roles';

/** One key of `GET /api-keys` and `POST /api-keys`'s answer: the service's own types (shared/tenancy/api-key-view.ts). */
export type { ApiKeyView as ApiKeyRow, CreatedApiKey } from '../../shared/tenancy/api-key-view';

export type ApiKeyState = 'active' | 'revoked' | 'expired';

/**
 * Whether a key still works: revoked wins over expired.
 *
 * @example
 * apiKeyStateOf({ credentialId: 'cred_1', origin: 'operator', createdAt: '2026-01-01T00:00:00Z' }, new Date()); // 'active'
 */
export function apiKeyStateOf(key: Pick<ApiKeyRow, 'revokedAt' | 'expiresAt'>, now: Date): ApiKeyState {
  if (key.revokedAt !== undefined) return 'revoked';
  if (key.expiresAt !== undefined && Date.parse(key.expiresAt) <= now.getTime()) return 'expired';
  return 'active';
}

const ORIGINS: Record<ApiKeyRow['origin'], string> = {
  operator: 'Issued by an operator',
  'organization-admin': 'Created here or through the API',
  'generate-key': 'Generated for a sender number (generate-key)',
};

/**
 * Who made the key, in words.
 *
 * @example
 * originWords('generate-key'); // 'Generated for a sender number (generate-key)'
 */
export const originWords = (origin: ApiKeyRow['origin']): string => ORIGINS[origin] ?? origin;

/**
 * What the key may use.
 *
 * @example
 * scopeWords({ boundPhoneNumber: '15550100001' }); // 'Only sender +15550100001'
 * scopeWords({}); // 'The whole organization'
 */
export const scopeWords = (key: Pick<ApiKeyRow, 'boundPhoneNumber'>): string =>
  key.boundPhoneNumber ? `Only sender +${key.boundPhoneNumber}` : 'The whole organization';

/**
 * The confirmation asked before a revocation; revoking the key the console is signed in with says
 * so (the next request signs out).
 *
 * @example
 * revokeQuestion({ credentialId: 'cred_1' }, { actor: 'api-key', credentialId: 'cred_1', role: 'admin', organizationId: 'o' });
 * // 'Revoke cred_1? This is the key you are signed in with: you will be signed out. Back ends using it are refused at once.'
 */
export function revokeQuestion(key: Pick<ApiKeyRow, 'credentialId'>, me: Me | undefined): string {
  const own = me?.actor === 'api-key' && me.credentialId === key.credentialId ? ' This is the key you are signed in with: you will be signed out.' : '';
  return `Revoke ${key.credentialId}?${own} Back ends using it are refused at once.`;
}

/** Revoked keys stay listed (for the record) below the active ones; otherwise the API's order (newest first). */
export const activeFirst = (keys: readonly ApiKeyRow[], now: Date): ApiKeyRow[] =>
  [...keys].sort((a, b) => Number(apiKeyStateOf(a, now) !== 'active') - Number(apiKeyStateOf(b, now) !== 'active'));
