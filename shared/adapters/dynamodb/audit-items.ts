/**
 * The audit table (docs/DATA-MODEL.md "Audit table"): its keys and item shape. One item per entry:
 *
 *   pk ORG#<org>                       sk <entryId>   an entry (entry ids sort by time: newest last)
 *   gsi1pk ORG#<org>#ACTOR#<actorId>   gsi1sk <entryId>   the entries of one person or credential
 *   gsi2pk ORG#<org>#ACTION#<action>   gsi2sk <entryId>   the entries of one operation
 *
 * The organization is part of every key, so no query of one organization reaches another's.
 * `expiresAt` (epoch seconds) is the table's TTL, 400 days after the entry.
 */
import * as v from 'valibot';
import type { AuditEntry } from '../../audit/audit-entry';
import { actorIdOf, auditExpiresAt } from '../../audit/audit-entry-id';

type Item = Record<string, unknown>;

/** Which listing a query reads: the organization's, one actor's (gsi1) or one action's (gsi2). */
export type AuditListing = { index: undefined } | { index: 'gsi1'; actorId: string } | { index: 'gsi2'; action: string };

export const auditKeys = {
  entry: (organizationId: string, entryId: string) => ({ pk: `ORG#${organizationId}`, sk: entryId }),
  byActor: (organizationId: string, actorId: string, entryId: string) => ({ gsi1pk: `ORG#${organizationId}#ACTOR#${actorId}`, gsi1sk: entryId }),
  byAction: (organizationId: string, action: string, entryId: string) => ({ gsi2pk: `ORG#${organizationId}#ACTION#${action}`, gsi2sk: entryId }),
} as const;

/** The partition key condition of a listing, and the key a page after `entryId` starts from. */
export function auditListingKeys(organizationId: string, listing: AuditListing): { name: string; value: string; startKey(entryId: string): Item } {
  const entry = (entryId: string) => auditKeys.entry(organizationId, entryId);
  if (listing.index === 'gsi1') {
    const { gsi1pk } = auditKeys.byActor(organizationId, listing.actorId, '');
    return { name: 'gsi1pk', value: gsi1pk, startKey: (entryId) => ({ ...entry(entryId), ...auditKeys.byActor(organizationId, listing.actorId, entryId) }) };
  }
  if (listing.index === 'gsi2') {
    const { gsi2pk } = auditKeys.byAction(organizationId, listing.action, '');
    return { name: 'gsi2pk', value: gsi2pk, startKey: (entryId) => ({ ...entry(entryId), ...auditKeys.byAction(organizationId, listing.action, entryId) }) };
  }
  return { name: 'pk', value: entry('').pk, startKey: entry };
}

/** The stored item of an entry: its fields, its three keys and its expiry. */
export function auditItem(entry: AuditEntry): Item {
  return {
    ...entry,
    ...auditKeys.entry(entry.organizationId, entry.entryId),
    ...auditKeys.byActor(entry.organizationId, actorIdOf(entry.actor), entry.entryId),
    ...auditKeys.byAction(entry.organizationId, entry.action, entry.entryId),
    expiresAt: auditExpiresAt(entry.at),
  };
}

const text = v.string();
const actorSchema = v.variant('kind', [
  v.object({ kind: v.literal('person'), personId: text, email: text, role: text }),
  v.object({ kind: v.literal('credential'), credentialId: text, credentialKind: text }),
  v.object({ kind: v.literal('operator'), name: text }),
]);

const storedEntrySchema = v.object({
  organizationId: text,
  entryId: text,
  at: text,
  actor: actorSchema,
  action: text,
  method: text,
  path: text,
  target: v.record(v.string(), v.string()),
  sourceIp: v.optional(text),
  statusCode: v.number(),
  outcome: v.picklist(['succeeded', 'refused', 'failed']),
  errorCode: v.optional(text),
  requestId: text,
});

/** A stored entry that does not match its schema: a defect or a hand-edited item, never a silently wrong answer. */
export class MalformedAuditItemError extends Error {
  override readonly name = 'MalformedAuditItemError';
  readonly code = 'MALFORMED_AUDIT_ITEM';
}

/**
 * The entry of a stored item (keys and expiry dropped).
 *
 * @example
 * const entry = decodeAuditEntry(result.Items[0]);
 */
export function decodeAuditEntry(item: Item): AuditEntry {
  const result = v.safeParse(storedEntrySchema, item);
  if (!result.success)
    throw new MalformedAuditItemError(`Stored audit entry ${String(item.sk)} does not match the entry schema: ${v.summarize(result.issues)}`);
  const { sourceIp, errorCode, ...entry } = result.output;
  return { ...entry, ...(sourceIp === undefined ? {} : { sourceIp }), ...(errorCode === undefined ? {} : { errorCode }) };
}
