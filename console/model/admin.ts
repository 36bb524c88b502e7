/**
 * The admin screens' words (docs/CONSOLE.md "People" and "Audit log"): the shapes of `GET /people`,
 * `POST /people` and `GET /audit-log` (docs/PEOPLE.md) and how each reads on the page.
 */
import type { AuditEntry } from '../../shared/audit/audit-entry';
import type { PersonRole } from '../../shared/people/person-role';

export interface PersonRow {
  personId: string;
  email: string;
  role: PersonRole;
  joinedAt: string;
}

/** `POST /people`'s answer: the person, and how the identity provider's invitation went. */
export interface InviteAnswer {
  person: PersonRow;
  invitation: { delivery: 'email-sent-by-identity-provider' | 'shown-once' | 'managed-by-identity-provider' | (string & {}); temporaryPassword?: string };
}

/** One entry of `GET /audit-log`: the service's own `AuditEntry` (shared/audit/audit-entry.ts) without the organization. */
export type AuditRow = Omit<AuditEntry, 'organizationId'>;

export interface AuditPage {
  entries: AuditRow[];
  nextCursor: string | null;
}

const DELIVERIES: Record<string, string> = {
  'managed-by-identity-provider': 'The organization’s own sign-in service manages their account: they sign in with it.',
  'email-sent-by-identity-provider': 'The sign-in service emailed them an invitation with a temporary password.',
  'shown-once': 'Their account was created with the temporary password below.',
};

/**
 * The invitation's result in words; a temporary password (the local provider's) is said apart, once.
 *
 * @example
 * invitationWords({ delivery: 'email-sent-by-identity-provider' }); // 'The sign-in service emailed them an invitation with a temporary password.'
 */
export const invitationWords = (invitation: InviteAnswer['invitation']): string =>
  DELIVERIES[invitation.delivery] ??
  (invitation.temporaryPassword ? 'Their account was created with the temporary password below.' : `Invitation: ${invitation.delivery}.`);

/**
 * Who acted, as the audit table says it.
 *
 * @example
 * actorWords({ kind: 'person', personId: 'psn_1', email: 'ana@example.com', role: 'admin' }); // 'ana@example.com (admin)'
 * actorWords({ kind: 'credential', credentialId: 'key_1', credentialKind: 'broadcast-api-key' }); // 'API key key_1'
 */
export function actorWords(actor: AuditRow['actor']): string {
  if (actor.kind === 'person') return `${actor.email} (${actor.role})`;
  if (actor.kind === 'operator') return `Operator ${actor.name}`;
  return `${actor.credentialKind === 'broadcast-api-key' ? 'API key' : 'Credential'} ${actor.credentialId}`;
}

/**
 * What an entry acted on: the ids its path names, or its path.
 *
 * @example
 * targetWords({ target: { personId: 'psn_1' }, path: '/people/psn_1' }); // 'personId psn_1'
 */
export const targetWords = (entry: Pick<AuditRow, 'target' | 'path'>): string => {
  const ids = Object.entries(entry.target ?? {});
  return ids.length > 0 ? ids.map(([name, id]) => `${name} ${id}`).join(', ') : entry.path;
};

/**
 * How the call ended.
 *
 * @example
 * outcomeWords({ outcome: 'refused', statusCode: 403, errorCode: 'ROLE_NOT_ALLOWED' }); // 'refused (403 ROLE_NOT_ALLOWED)'
 */
export const outcomeWords = (entry: Pick<AuditRow, 'outcome' | 'statusCode' | 'errorCode'>): string =>
  `${entry.outcome} (${entry.statusCode}${entry.errorCode ? ` ${entry.errorCode}` : ''})`;
