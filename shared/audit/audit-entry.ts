/**
 * One record of the audit log (docs/PEOPLE.md "Audit log"): who changed something of an
 * organization, when, from where, what, and how it ended. Written for every state-changing call of
 * the broadcast and organization surfaces; read by `GET /broadcast/public/audit-log`.
 */

/** Who acted: a person signed in with their own token, or a credential (the organization's API key, an organization token). */
export type AuditActor =
  | { kind: 'person'; personId: string; email: string; role: string }
  | { kind: 'credential'; credentialId: string; credentialKind: string }
  /** An operator's command (the admin CLI): no request, no source address. */
  | { kind: 'operator'; name: string };

export interface AuditEntry {
  organizationId: string;
  /** Unique, sortable by time within the organization (`aud_<ISO time>_<random>` style chosen by the adapter's keys). */
  entryId: string;
  /** ISO time the call was received. */
  at: string;
  actor: AuditActor;
  /** The operation's name from the route manifest (`launchCampaign`, `invitePerson`, …). */
  action: string;
  method: string;
  /** The public path as called, stage included; ids only (no phone number or secret is ever in a path). */
  path: string;
  /** The ids the path names (`{ campaignId: 'cmp_…' }`). */
  target: Record<string, string>;
  /** The caller's source address as API Gateway saw it; absent for an operator's command. */
  sourceIp?: string;
  /** The answer's status code; `outcome` in words: `succeeded` (2xx), `refused` (4xx), `failed` (5xx). */
  statusCode: number;
  outcome: 'succeeded' | 'refused' | 'failed';
  /** The error code of a refusal or failure (`ROLE_NOT_ALLOWED`, `INSUFFICIENT_BALANCE`, …). */
  errorCode?: string;
  requestId: string;
}

/**
 * The outcome word of a status code.
 *
 * @example
 * outcomeOf(202); // 'succeeded'
 * outcomeOf(403); // 'refused'
 */
export function outcomeOf(statusCode: number): AuditEntry['outcome'] {
  if (statusCode < 400) return 'succeeded';
  return statusCode < 500 ? 'refused' : 'failed';
}
