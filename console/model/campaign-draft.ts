/**
 * The builder's campaign (docs/CONSOLE.md "New campaign"): the body of `POST /campaigns`, the dry
 * run's rows, and the words of the launch's confirmation (the count and the cost it names).
 */
import type { CampaignValues } from '../../shared/campaigns/campaign-values';
import type { SendRules } from '../../shared/send-rules/send-rules.schema';
import type { CampaignDryRunAnswer, TemplateView } from './api-types';
import type { Measurement } from './campaign-measurement';
import { formatCount, formatMoney, formatTime } from './format';

export interface DraftForm extends Measurement {
  name: string;
  fromPhoneNumber: string;
  audienceId: string;
  template: Pick<TemplateView, 'name' | 'language' | 'category'>;
  values: CampaignValues;
  /** ISO time, or undefined to send at launch. */
  scheduledAt?: string;
  /** Issue 39: the send window, deferral over the cap, the canary and the halt thresholds (model/send-rules-form.ts). */
  sendRules?: Partial<SendRules>;
}

/**
 * The create request (docs/CAMPAIGNS.md "Creating a campaign").
 *
 * @example
 * campaignBody({ name: 'Shipped', fromPhoneNumber: '15550100001', audienceId: 'aud_1', template: { name: 'order_shipped', language: 'en_US', category: 'UTILITY' }, values: { templateParams: ['x'] } });
 * // { name: 'Shipped', fromPhoneNumber: '15550100001', templateName: 'order_shipped', templateLanguage: 'en_US', templateType: 'UTILITY', audience: { audienceIds: ['aud_1'] }, templateParams: ['x'] }
 */
export function campaignBody(form: DraftForm): Record<string, unknown> {
  return {
    name: form.name,
    fromPhoneNumber: form.fromPhoneNumber,
    templateName: form.template.name,
    templateLanguage: form.template.language,
    templateType: form.template.category,
    audience: { audienceIds: [form.audienceId] },
    ...form.values,
    ...(form.scheduledAt ? { scheduledAt: form.scheduledAt } : {}),
    ...(form.holdout ? { holdout: { percent: form.holdout.percent } } : {}),
    ...(form.attributionWindowHours === undefined ? {} : { attributionWindowHours: form.attributionWindowHours }),
    ...form.sendRules,
  };
}

/**
 * A `datetime-local` field's value (the reader's zone) as an ISO time; undefined when empty or not a time.
 *
 * @example
 * scheduleOf(''); // undefined
 */
export function scheduleOf(local: string): string | undefined {
  if (local.trim() === '') return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** The estimated cost in words ("about 12.34 USD", "up to …"), or undefined without a rate card. */
export function costText(answer: Pick<CampaignDryRunAnswer, 'estimatedCost'>): string | undefined {
  const cost = answer.estimatedCost;
  if (!cost) return undefined;
  const unpriced = cost.unpriced > 0 ? ` (${formatCount(cost.unpriced)} not priced)` : '';
  return `${cost.upTo ? 'up to' : 'about'} ${formatMoney(cost.amount, cost.currency)}${unpriced}`;
}

/** The dry run as rows of the builder's table: what is sent, who is left out and why, the cost. */
export function dryRunRows(answer: CampaignDryRunAnswer): Array<[string, string]> {
  const { audience } = answer;
  const rows: Array<[string, string]> = [
    ['Members read', `${formatCount(audience.members)}${answer.estimated ? ` (estimated from the first ${formatCount(answer.membersRead)})` : ''}`],
    ['Sendable', formatCount(answer.sendable)],
    ['Opted out', formatCount(audience.optedOut)],
    ['Duplicates', formatCount(audience.duplicates)],
    ['Missing values (no attribute, no fallback)', formatCount(audience.missingAttribute)],
    ['Invalid values', formatCount(audience.invalid)],
  ];
  if (audience.excluded > 0) rows.push(['Excluded', formatCount(audience.excluded)]);
  if (audience.filteredOut > 0) rows.push(['Filtered out', formatCount(audience.filteredOut)]);
  rows.push(['Estimated cost', costText(answer) ?? 'no rate card: not estimated']);
  return rows;
}

/**
 * The plan within Meta's messaging limit, one line per step.
 *
 * @example
 * limitPlanLines({ tier: 'TIER_2K', headroom: null, plan: [] }); // ['Tier TIER_2K: no limit applies, all go now']
 */
export function limitPlanLines(limit: CampaignDryRunAnswer['messagingLimit']): string[] {
  if (limit.headroom === null) return [`Tier ${limit.tier}: no limit applies, all go now`];
  const head = `Tier ${limit.tier}: ${formatCount(limit.headroom)} new recipients can be reached now`;
  return [head, ...limit.plan.map((step, index) => `${index === 0 ? 'From now' : `From ${formatTime(step.from)}`}: ${formatCount(step.recipients)}`)];
}

/**
 * The confirmation's question, naming the count and the cost.
 *
 * @example
 * confirmationText({ sendable: 1990, estimatedCost: undefined }, 'order_shipped', undefined);
 * // 'Send order_shipped to 1,990 members now? Cost: not estimated (no rate card).'
 */
export function confirmationText(
  answer: Pick<CampaignDryRunAnswer, 'sendable' | 'estimatedCost'>,
  templateName: string,
  scheduledAt: string | undefined,
): string {
  const when = scheduledAt ? `at ${formatTime(scheduledAt)}` : 'now';
  const cost = costText(answer);
  return `Send ${templateName} to ${formatCount(answer.sendable)} members ${when}? Cost: ${cost ?? 'not estimated (no rate card)'}.`;
}

/**
 * Whether a member of the loaded page matches the search: its number (with or without the country
 * code, spaces and `+` ignored), user id, a tag or an attribute value, case-insensitive.
 *
 * @example
 * memberMatches({ countryCode: '91', toPhoneNumber: '9800000001', attributes: { first_name: 'Ada' }, tags: [] }, '+91 98000'); // true
 */
export function memberMatches(
  member: { countryCode: string; toPhoneNumber: string; userId?: string; attributes: Record<string, unknown>; tags: string[] },
  query: string,
): boolean {
  const wanted = query.trim().toLowerCase();
  if (wanted === '') return true;
  const digits = wanted.replace(/[\s+\-()]/g, '');
  if (/^\d+$/.test(digits) && `${member.countryCode}${member.toPhoneNumber}`.includes(digits)) return true;
  const texts = [member.userId ?? '', ...member.tags, ...Object.values(member.attributes).map(String)];
  return texts.some((text) => text.toLowerCase().includes(wanted));
}

/**
 * What the builder's form still lacks, in words, or undefined when it can be checked.
 *
 * @example
 * draftProblem({ name: '', audienceId: 'aud_1', hasTemplate: true, when: '' }); // 'Give the campaign a name.'
 */
export function draftProblem(form: { name: string; audienceId: string; hasTemplate: boolean; missing?: { label: string }; when: string }): string | undefined {
  if (form.name.trim() === '') return 'Give the campaign a name.';
  if (!form.audienceId) return 'Choose an audience.';
  if (!form.hasTemplate) return 'Choose a template.';
  if (form.missing) return `Give a value for ${form.missing.label}.`;
  if (form.when !== '' && !scheduleOf(form.when)) return 'The schedule is not a time.';
  return undefined;
}
