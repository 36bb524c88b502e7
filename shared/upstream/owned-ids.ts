/**
 * Does the caller's organization own this id? Everything the wrapper checks beyond the business
 * account and phone number of the path (resolve-target.ts) is decided here.
 *
 * Listed ids. Template and flow ids are Graph nodes of their own: `GET /{template-id}` works with
 * any token that can see the template, and says nothing about which business account owns it. The
 * wrapper therefore checks such ids (and template names) against the account's own list
 * (`GET /{waba-id}/message_templates`, `GET /{waba-id}/flows`), read upstream with the account's
 * token and reused for a short while (per Lambda container). An id missing from a cached list
 * triggers one fresh read (it may have just been created) before the answer is 404. QR codes are
 * checked the same way against the number's `GET /{phone-number-id}/message_qrdls`.
 *
 * Ids inside message bodies (body-ids.ts): media ids against the uploads recorded for the
 * organization (else Meta's own check through `phone_number_id` of the sending number), message
 * ids against the sends recorded by the wrapper and the platform's ledger, flow ids and template
 * names against the account's lists. Every refusal is the same 404 as a foreign phoneNumberId.
 */
import { TtlLruCache } from '../caching/ttl-lru-cache';
import type { BodyIds } from './body-ids';
import { callGraph, listAllPages, scopedByMeta } from './call-upstream';
import { UpstreamRateLimitedError, UpstreamRejectedError, UpstreamTargetNotFoundError } from './errors';
import type { OwnedIdList, OwnedIdLists, UpstreamWrapperDependencies, WrapperIdRecord } from './ports';
import { requireUpstreamId, type ResolvedTarget } from './resolve-target';

export type OwnedIdKind = 'template' | 'template-name' | 'flow' | 'qr-code';

/** The list an id must be in, and the item field it is compared with (QR codes are named by `code`). */
function listOf(
  kind: OwnedIdKind,
  target: ResolvedTarget,
): { list: string; path: string; query: Record<string, string>; fields: readonly string[]; field: string; owner: string } {
  const wabaId = encodeURIComponent(target.account.wabaId);
  switch (kind) {
    case 'template':
    case 'template-name':
      // One read serves both checks.
      return {
        list: 'templates',
        path: `/${wabaId}/message_templates`,
        query: { fields: 'id,name', limit: '100' },
        fields: ['id', 'name'],
        field: kind === 'template' ? 'id' : 'name',
        owner: target.account.wabaId,
      };
    case 'flow':
      return { list: 'flows', path: `/${wabaId}/flows`, query: { limit: '100' }, fields: ['id'], field: 'id', owner: target.account.wabaId };
    case 'qr-code': {
      if (!target.phoneNumber) throw new Error('QR codes are checked against a phone number');
      const phoneNumberId = target.phoneNumber.phoneNumberId;
      // Default page size: Meta caps this edge's limit lower than the others'.
      return {
        list: 'qr-codes',
        path: `/${encodeURIComponent(phoneNumberId)}/message_qrdls`,
        query: {},
        fields: ['code'],
        field: 'code',
        owner: phoneNumberId,
      };
    }
  }
}

/**
 * The in-memory OwnedIdLists of one Lambda container: at most `maxEntries` lists (least recently
 * used dropped first), each reused for `ttlMs` after it was read. Keys start with the organization.
 */
export class OwnedIdDirectory implements OwnedIdLists {
  private readonly lists: TtlLruCache<OwnedIdList>;

  constructor(ttlMs: number, maxEntries = 1_000) {
    this.lists = new TtlLruCache({ ttlMs, maxEntries });
  }

  get(key: string, nowMs: number): OwnedIdList | undefined {
    const list = this.lists.get(key, nowMs);
    // A list is as old as its read, not its insertion (a read may finish after a later one).
    return list && nowMs - list.fetchedAt <= this.lists.ttlMs ? list : undefined;
  }

  set(key: string, list: OwnedIdList): void {
    this.lists.set(key, list, list.fetchedAt);
  }

  forget(organizationId: string, owner: string): void {
    const prefix = `${organizationId}#${owner}#`;
    this.lists.deleteWhere((key) => key.startsWith(prefix));
  }
}

/** Throws UpstreamTargetNotFoundError (404) for the first id the account (or number) does not own. */
export async function requireOwnedIds(
  deps: UpstreamWrapperDependencies,
  kind: OwnedIdKind,
  ids: readonly string[],
  target: ResolvedTarget,
  operation: string,
): Promise<void> {
  if (ids.length === 0) return;
  const source = listOf(kind, target);
  const key = `${target.account.organizationId}#${source.owner}#${source.list}`;
  const now = deps.clock.now().getTime();
  let values = deps.ownedIds.get(key, now)?.fields.get(source.field);
  if (!values || ids.some((id) => !values!.has(id))) {
    const items = await listAllPages<Record<string, unknown>>(
      deps,
      { account: target.account, operation, verifiedNode: true },
      {
        path: source.path,
        query: source.query,
        accessToken: target.accessToken,
      },
    );
    const fields = new Map(source.fields.map((field) => [field, new Set(items.flatMap((item) => (item[field] === undefined ? [] : [String(item[field])])))]));
    deps.ownedIds.set(key, { fields, fetchedAt: now });
    values = fields.get(source.field)!;
  }
  const missing = ids.find((id) => !values!.has(id));
  if (missing !== undefined) throw new UpstreamTargetNotFoundError(kind === 'template-name' ? 'template' : kind, missing);
}

/** Message ids as Meta writes them (`wamid.` + base64); anything else cannot be one of ours. */
const MESSAGE_ID = /^[A-Za-z0-9._=+/:-]{1,256}$/;

/** 404 unless every message id was sent (or received) by the organization through the wrapper or the platform. */
async function requireOwnedMessages(deps: UpstreamWrapperDependencies, organizationId: string, messageIds: readonly string[]): Promise<void> {
  if (messageIds.length === 0) return;
  const malformed = messageIds.find((id) => !MESSAGE_ID.test(id));
  if (malformed !== undefined) throw new UpstreamTargetNotFoundError('message', malformed);
  const recorded = await deps.idRecords.ownedMessages(organizationId, messageIds, deps.clock.now());
  for (const id of messageIds.filter((candidate) => !recorded.has(candidate))) {
    // Broadcasts, free-form and earlier sends keep their message ids in the ledger.
    if ((await deps.platformMessages.organizationOf(id)) !== organizationId) throw new UpstreamTargetNotFoundError('message', id);
  }
}

/**
 * 404 unless every media id was uploaded by the organization through the wrapper, or Meta says it
 * belongs to the sending number (`GET /{media-id}?phone_number_id=`: media uploaded directly to
 * Meta on that number). A media id Meta confirms is recorded, so the next use needs no Graph call.
 */
async function requireOwnedMedia(deps: UpstreamWrapperDependencies, target: ResolvedTarget, mediaIds: readonly string[], operation: string): Promise<void> {
  if (mediaIds.length === 0) return;
  for (const id of mediaIds) requireUpstreamId(id, 'media');
  const organizationId = target.account.organizationId;
  const recorded = await deps.idRecords.ownedMedia(organizationId, mediaIds, deps.clock.now());
  for (const id of mediaIds.filter((candidate) => !recorded.has(candidate))) {
    const phoneNumber = target.phoneNumber;
    if (!phoneNumber) throw new UpstreamTargetNotFoundError('media', id);
    try {
      await scopedByMeta(deps, target, 'media', id, () =>
        callGraph(
          deps,
          { account: target.account, operation, verifiedNode: false },
          {
            method: 'GET',
            path: `/${encodeURIComponent(id)}`,
            query: { phone_number_id: phoneNumber.phoneNumberId },
            accessToken: target.accessToken,
          },
        ),
      );
    } catch (error) {
      // Whatever else Meta says about a media id we could not verify, the id is not shown to be ours.
      if (error instanceof UpstreamRejectedError && !(error instanceof UpstreamRateLimitedError) && error.graphError.code !== 190) {
        throw new UpstreamTargetNotFoundError('media', id);
      }
      throw error;
    }
    await bestEffort(deps, 'record media id confirmed by Meta', target, operation, () => deps.idRecords.recordMedia(recordOf(target, id, deps.clock.now())));
  }
}

/**
 * 404 unless every id a body names belongs to the caller's organization (the resolved account or
 * number): records and ledgers first (storage reads), then the account's lists and Meta.
 */
export async function requireBodyIdsOwned(deps: UpstreamWrapperDependencies, target: ResolvedTarget, ids: BodyIds, operation: string): Promise<void> {
  await requireOwnedMessages(deps, target.account.organizationId, ids.messages);
  await requireOwnedIds(
    deps,
    'flow',
    ids.flows.map((id) => requireUpstreamId(id, 'flow')),
    target,
    operation,
  );
  await requireOwnedIds(deps, 'template-name', ids.templateNames, target, operation);
  await requireOwnedMedia(deps, target, ids.media, operation);
}

const recordOf = (target: ResolvedTarget, id: string, now: Date): WrapperIdRecord => ({
  organizationId: target.account.organizationId,
  wabaId: target.account.wabaId,
  phoneNumberId: target.phoneNumber?.phoneNumberId ?? '',
  id,
  recordedAt: now,
});

/**
 * After the upstream call succeeded: a failed record must not turn a sent message (or an upload)
 * into an error the caller would retry. It is logged; that id is then refused in later bodies.
 */
export async function bestEffort(
  deps: UpstreamWrapperDependencies,
  what: string,
  target: ResolvedTarget,
  operation: string,
  write: () => Promise<void>,
): Promise<void> {
  try {
    await write();
  } catch (error) {
    deps.log.warn(`could not ${what}; it will be refused in message bodies`, {
      operation,
      organizationId: target.account.organizationId,
      wabaId: target.account.wabaId,
      phoneNumberId: target.phoneNumber?.phoneNumberId,
      error: (error as Error).name,
    });
  }
}

/** `messages[].id` of Meta's answer to a send. */
export function sentMessageIds(body: unknown): string[] {
  const messages = (body as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message) => {
    const id = (message as { id?: unknown } | null)?.id;
    return typeof id === 'string' && MESSAGE_ID.test(id) ? [id] : [];
  });
}

/** Records a media id the organization just uploaded on the target's number (best effort). */
export async function recordUploadedMedia(deps: UpstreamWrapperDependencies, target: ResolvedTarget, mediaId: unknown, operation: string): Promise<void> {
  if (typeof mediaId !== 'string' || mediaId.length === 0) return;
  await bestEffort(deps, 'record uploaded media id', target, operation, () => deps.idRecords.recordMedia(recordOf(target, mediaId, deps.clock.now())));
}
