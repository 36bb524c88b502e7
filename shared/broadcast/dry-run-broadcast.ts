/**
 * The dry run of a template broadcast (docs/BROADCAST.md "Dry run"): every check of a real accept
 * (send-template-broadcast.ts), each recipient's broken rules collected instead of the first one
 * failing the request, the messaging limit's headroom read and the cost estimated from the rate
 * card. Nothing is queued, charged, reserved or written: its ports are read-only.
 *
 * What is not a recipient's (scope, the sender, the template, the broadcast's own content, the
 * schedule window, media ownership) fails as in a real accept: nothing of the list could be sent.
 */
import type { SendTemplateBroadcastDependencies, BroadcastCaller } from './send-template-broadcast';
import { recipientKeyOfInput, scheduledTimeOf } from './send-template-broadcast';
import { requireSendableToUserIds, selectTemplate, sendableRequirementsOf } from './template-checks';
import { requireOperationInScope, requireSenderInScope } from './key-scope';
import { reachHeadroom, type MessagingLimitDependencies, type ReachHeadroom } from './messaging-limit';
import { recipientResolver, requireOwnedMedia } from './broadcast-content';
import { contentOf } from '../templates/template-content.schema';
import type { ChunkRecipient } from './chunk-message';
import type { InvalidRow, ScreenedRows } from './dry-run-request';
import type { TemplateBroadcastRequest } from './template-broadcast.schema';
import { CostTally, type CostTotals, type RateCardSource } from '../pricing/rate-card';
import { callingCodeOf } from '../recipients/calling-code';
import { serviceMonthOf, serviceTierUsage, type ServiceMessageCounter, type ServiceTierUsage } from '../delivery/service-tier';
import { maxPriceOf, type MaxPrice } from './template-max-price';
import { sendWindowPlanOf, type SendWindowPlan } from '../send-rules/send-window-plan';
import { isUsRecipient, usMarketingGuarded, usMarketingRefusal } from './us-marketing-guard';
import type { SenderAccount } from './ports';
import type { UpstreamTemplate } from '../sending/ports';

/** Read-only ports: no queue, no job store, no idempotency guard, no wallet. */
export interface DryRunDependencies
  extends Pick<SendTemplateBroadcastDependencies, 'senders' | 'templates' | 'optOuts' | 'clock' | 'media'>,
    MessagingLimitDependencies {
  /** The rate card in force; without one (or without a card set) the answer has no `estimatedCost`. */
  rateCards?: RateCardSource;
  /** The schedule window's minimum lead, when `scheduledAt` is given. */
  scheduling?: { minLeadSeconds: number };
  /** The sender's delivered service messages this month (Meta's free tier); absent: no `serviceMessages`. */
  serviceTier?: Pick<ServiceMessageCounter, 'deliveriesIn'>;
}

export interface DryRunResult {
  dryRun: true;
  /** Each received row counted once: sendable + optedOut + duplicates + invalid = received. */
  totals: { received: number; sendable: number; optedOut: number; duplicates: number; invalid: number };
  /** Every broken rule of every invalid row (a row may break several). */
  invalid: InvalidRow[];
  /** Rows repeating an earlier row's recipient (a real accept refuses the request for them). */
  duplicates: { index: number; duplicateOf: number }[];
  /** Rows on the organization's opt-out list (a real accept records them FAILED OPTED_OUT, never sent). */
  optedOut: { index: number }[];
  messagingLimit: ReachHeadroom & { wouldExceed: boolean };
  estimatedCost?: MaxPriceEstimate;
  /**
   * The sender's service (free-form) messages delivered this UTC month as the platform counted them, and
   * what is left of Meta's 1,000 free: replies to this broadcast's recipients beyond it are billed at the
   * card's `service` (else `utility`) price (docs/DELIVERY-STATUS.md "Pricing values and service messages").
   */
  serviceMessages?: ServiceTierUsage;
  /** The template's max price (template-max-price.ts): each delivered message is billed by Meta up to it. */
  maxPrice?: MaxPrice & { upTo: true };
  /** With a `sendWindow`: how many go at the send time and when the rest go (docs/CAMPAIGNS.md "Send windows"). */
  sendWindow?: SendWindowPlan;
}

/** The estimate; for a template with a max price also `upTo: true` and the cap (Meta bills each message up to it). */
export type MaxPriceEstimate = CostTotals & { upTo?: true; maxPrice?: MaxPrice };

/** A content rule's message names its field first (`data[3].templateParams has …`): the row's own when it starts with `data[<index>]`. */
function rowIssueOf(error: unknown, index: number): InvalidRow | undefined {
  const message = error instanceof Error ? error.message : '';
  const prefix = `data[${index}]`;
  if (!message.startsWith(prefix) || !('code' in (error as object))) return undefined;
  const space = message.indexOf(' ');
  return space === -1 ? { index, field: prefix, rule: message } : { index, field: message.slice(0, space), rule: message.slice(space + 1) };
}

interface RowSorting {
  sendable: ChunkRecipient[];
  invalid: InvalidRow[];
  duplicates: { index: number; duplicateOf: number }[];
}

/** Each row's key (E.164 length), duplicates (the first occurrence kept), then its values against the template. */
function sortRows(request: TemplateBroadcastRequest, screened: ScreenedRows, resolve: ReturnType<typeof recipientResolver>): RowSorting {
  const sorting: RowSorting = { sendable: [], invalid: [...screened.invalid], duplicates: [] };
  const firstIndexOf = new Map<string, number>();
  request.data.forEach((recipient, position) => {
    const index = screened.indexes[position] ?? position;
    try {
      const key = recipientKeyOfInput(recipient, index);
      const first = firstIndexOf.get(key);
      if (first !== undefined) {
        sorting.duplicates.push({ index, duplicateOf: first });
        return;
      }
      firstIndexOf.set(key, index);
      sorting.sendable.push(resolve(recipient, index, key));
    } catch (error) {
      const issue = rowIssueOf(error, index);
      if (!issue) throw error;
      sorting.invalid.push(issue);
    }
  });
  sorting.invalid.sort((left, right) => left.index - right.index);
  return sorting;
}

/** The resolver with the US marketing guard first (a row of its own in `invalid`, as a real accept refuses it). */
function usMarketingChecked(
  resolve: ReturnType<typeof recipientResolver>,
  template: UpstreamTemplate,
  sender: SenderAccount,
): ReturnType<typeof recipientResolver> {
  if (!usMarketingGuarded(template.category, sender)) return resolve;
  return (recipient, index, key) => {
    if (key !== undefined && isUsRecipient(key)) throw usMarketingRefusal(recipient, index, template.name);
    return resolve(recipient, index, key);
  };
}

/**
 * Runs a dry run of `request` (a built broadcast request: the follow-up route passes its own;
 * the HTTP route passes the rows its parse kept and `screened` what it set aside).
 *
 * @example
 * const result = await dryRunBroadcast(ports, caller, request);
 * result.totals; // { received: 3, sendable: 2, optedOut: 1, duplicates: 0, invalid: 0 }
 */
export async function dryRunBroadcast(
  dependencies: DryRunDependencies,
  caller: BroadcastCaller,
  request: TemplateBroadcastRequest,
  screened: ScreenedRows = { received: request.data.length, indexes: request.data.map((_, index) => index), invalid: [] },
): Promise<DryRunResult> {
  requireOperationInScope(caller, 'send-template-broadcast');
  requireSenderInScope(caller, request.fromPhoneNumber);
  const now = dependencies.clock.now();
  const sendsAt = request.scheduledAt === undefined ? now : scheduledTimeOf(request.scheduledAt, now, dependencies.scheduling);
  const sender = await dependencies.senders.resolveSender(caller.organizationId, request.fromPhoneNumber);
  const template = selectTemplate(await dependencies.templates.templatesOf(sender.wabaId, sender.accessToken), request);
  const requirements = sendableRequirementsOf(template);
  requireSendableToUserIds(template, request.data);
  const rows = sortRows(request, screened, usMarketingChecked(recipientResolver(request, requirements, sendsAt), template, sender));
  await requireOwnedMedia(dependencies.media, caller.organizationId, contentOf(request), rows.sendable, now);
  const suppressed =
    rows.sendable.length === 0
      ? new Set<string>()
      : await dependencies.optOuts.suppressedAmong(
          caller.organizationId,
          rows.sendable.map(({ to }) => to),
        );
  const sendable = rows.sendable.filter(({ to }) => !suppressed.has(to));
  const optedOut = rows.sendable.filter(({ to }) => suppressed.has(to)).map(({ index }) => ({ index }));
  const headroom = await reachHeadroom(
    dependencies,
    sender,
    sendable.map(({ to }) => to),
    sendsAt,
  );
  const maxPrice = maxPriceOf(template);
  const estimatedCost = await estimatedCostOf(dependencies, caller.organizationId, template.category, sendable);
  const month = serviceMonthOf(now);
  const serviceMessages = dependencies.serviceTier && serviceTierUsage(month, await dependencies.serviceTier.deliveriesIn(sender.phoneNumberId, month));
  return {
    dryRun: true,
    totals: {
      received: screened.received,
      sendable: sendable.length,
      optedOut: optedOut.length,
      duplicates: rows.duplicates.length,
      invalid: new Set(rows.invalid.map(({ index }) => index)).size,
    },
    invalid: rows.invalid,
    duplicates: rows.duplicates,
    optedOut,
    messagingLimit: { ...headroom, wouldExceed: headroom.headroom !== null && headroom.newRecipients > headroom.headroom },
    ...(estimatedCost && { estimatedCost: maxPrice ? { ...estimatedCost, upTo: true as const, maxPrice } : estimatedCost }),
    ...(maxPrice && { maxPrice: { ...maxPrice, upTo: true as const } }),
    ...(serviceMessages && { serviceMessages }),
    ...sendWindowPlanOf(request.sendWindow, sendable, sendsAt),
  };
}

/** The template's category priced for every sendable recipient by its calling code (Meta bills a delivered template by it). */
async function estimatedCostOf(
  dependencies: DryRunDependencies,
  organizationId: string,
  templateCategory: string,
  sendable: readonly ChunkRecipient[],
): Promise<CostTotals | undefined> {
  const card = await dependencies.rateCards?.rateCardOf(organizationId);
  if (!card) return undefined;
  const tally = new CostTally(card);
  const category = templateCategory.toLowerCase();
  for (const { to } of sendable) tally.add(callingCodeOf(to), category);
  return tally.totals();
}
