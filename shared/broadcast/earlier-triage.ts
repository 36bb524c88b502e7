/**
 * The per-recipient judgement of the earlier send-single and send-bulk (send-earlier-template.ts):
 * which recipients are sent and at what price, which fail and why. A failure is a partial failure
 * of the request (counted, not charged, stored in the ledger as FAILED with its reason), and the
 * answer names each one (`failuresOf`).
 */
import type { ChunkRecipient } from './chunk-message';
import { addressOfEarlier, refusedRecipientKey, type EarlierRecipient, type NumberIssue } from './earlier-recipients';
import type { BillingPort, SuppressionList } from './ports';
import { describeReason, INVALID_PHONE_NUMBER, OPTED_OUT } from '../sending/failure-reasons';
import { isUsRecipient, US_MARKETING_PAUSED } from './us-marketing-guard';

/** One refused recipient: its ledger key, its reason code and, for a number breaking the rule, where. */
export interface EarlierFailure {
  index: number;
  to: string;
  reason: string;
  issue?: NumberIssue;
}

export interface Triage {
  accepted: Array<ChunkRecipient & { priceMicros: number }>;
  failed: EarlierFailure[];
}

/** What the triage reads of the request. */
export interface TriageInput {
  recipients: readonly EarlierRecipient[];
  globalTemplateParams?: string[];
}

/**
 * Judges each recipient in request order: its number (or user id), duplicates of an earlier one,
 * its parameters against the template's placeholders, the destination's price. Prices are read once
 * per calling code.
 *
 * @example
 * const { accepted, failed } = await triageRecipients(billing, { recipients }, 'UTILITY', 2);
 * // failed: [{ index: 1, to: 'invalid:1', reason: 'INVALID_PHONE_NUMBER', issue: { field: 'toPhoneNumber', rule: 'must not be empty' } }]
 */
export async function triageRecipients(
  billing: BillingPort,
  input: TriageInput,
  category: string,
  placeholders: number,
  /** Meta's US marketing pause applies (us-marketing-guard.ts): US recipients are refused. */
  usGuarded = false,
): Promise<Triage> {
  const prices = new Map<string, Promise<number | undefined>>();
  const seen = new Set<string>();
  const triage: Triage = { accepted: [], failed: [] };
  for (const [index, recipient] of input.recipients.entries()) {
    const address = addressOfEarlier(recipient);
    if ('issue' in address) {
      triage.failed.push({ index, to: refusedRecipientKey(index), reason: INVALID_PHONE_NUMBER, issue: address.issue });
      continue;
    }
    const { countryCode, to } = address;
    if (recipient.userId !== undefined && category === 'AUTHENTICATION') {
      triage.failed.push({ index, to, reason: '131062' });
      continue;
    }
    if (countryCode === undefined) {
      triage.failed.push({ index, to, reason: 'UNSUPPORTED_COUNTRY_CODE' });
      continue;
    }
    if (seen.has(to)) {
      triage.failed.push({ index, to, reason: 'DUPLICATE_RECIPIENT' });
      continue;
    }
    seen.add(to);
    // After the number's own checks, so an invalid or repeated number keeps its reason.
    if (usGuarded && isUsRecipient(to)) {
      triage.failed.push({ index, to, reason: US_MARKETING_PAUSED });
      continue;
    }
    const parameters = recipient.templateParams ?? input.globalTemplateParams ?? [];
    if (parameters.length !== placeholders) {
      triage.failed.push({ index, to, reason: '131014' });
      continue;
    }
    if (!prices.has(countryCode)) prices.set(countryCode, billing.priceOf(countryCode, category));
    const priceMicros = await prices.get(countryCode)!;
    if (priceMicros === undefined) {
      triage.failed.push({ index, to, reason: 'UNSUPPORTED_COUNTRY_CODE' });
      continue;
    }
    triage.accepted.push({ index, to, parameters, priceMicros });
  }
  return triage;
}

/**
 * Moves the valid recipients on the organization's opt-out list to the failures (OPTED_OUT): a
 * single send to one of them is answered like a bulk send (failed_contacts 1, nothing charged),
 * not refused, since nothing about the request is wrong.
 *
 * @example
 * await refuseOptedOut(optOuts, 'org_1', triage); // triage.failed gains { index, to, reason: 'OPTED_OUT' } for each opted-out recipient
 */
export async function refuseOptedOut(optOuts: SuppressionList, organizationId: string, triage: Triage): Promise<void> {
  if (triage.accepted.length === 0) return;
  const suppressed = await optOuts.suppressedAmong(
    organizationId,
    triage.accepted.map(({ to }) => to),
  );
  if (suppressed.size === 0) return;
  const optedOut = triage.accepted.filter(({ to }) => suppressed.has(to));
  triage.accepted = triage.accepted.filter(({ to }) => !suppressed.has(to));
  triage.failed = [...triage.failed, ...optedOut.map(({ index, to }) => ({ index, to, reason: OPTED_OUT }))].sort((a, b) => a.index - b.index);
}

/** One refused recipient as the answer names it (`data.data.failures[]`). */
export interface EarlierFailureView {
  index: number;
  failureReasonCode: string;
  /** The field and the rule for a number (`data[3].toPhoneNumber must not be empty`), else the reason in words. */
  message: string;
}

/**
 * The answer's view of the failures, in request order: a broken number names its field as the
 * body's 400s do (`data[i].<field>` for send-bulk, the field alone for send-single).
 *
 * @example
 * failuresOf([{ index: 1, to: 'invalid:1', reason: 'INVALID_PHONE_NUMBER', issue: { field: 'toPhoneNumber', rule: 'must not be empty' } }], 'bulk');
 * // [{ index: 1, failureReasonCode: 'INVALID_PHONE_NUMBER', message: 'data[1].toPhoneNumber must not be empty' }]
 */
export function failuresOf(failed: readonly EarlierFailure[], mode: 'single' | 'bulk'): EarlierFailureView[] {
  return failed.map(({ index, reason, issue }) => ({
    index,
    failureReasonCode: reason,
    message: issue === undefined ? describeReason(reason).text : `${mode === 'bulk' ? `data[${index}].` : ''}${issue.field} ${issue.rule}`,
  }));
}
