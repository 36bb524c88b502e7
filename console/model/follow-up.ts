import type { BroadcastListItem, CampaignView, JobStatusView } from './api-types';
import { tappedPayloadsOf } from './outcomes';

/** Who a follow-up reaches: the failed, the unread, or (issue 38) those reached, by what they did after. */
export type FollowUpKind = 'failed' | 'unread' | 'outcome';

/** The statuses of the reached (the `outcome` kind's choice; all three by default). */
export const REACHED_STATUSES = ['SENT', 'DELIVERED', 'READ'] as const;

/**
 * The follow-up's outcome filters (issue 38), ANDed with the status selection: replied or not,
 * clicked or not, tapped one of these payloads. Absent: either.
 */
export interface OutcomeFilters {
  replied?: boolean;
  clicked?: boolean;
  buttonPayloads?: string[];
}

/**
 * A dialog's "any / yes / no" choice as a filter value.
 *
 * @example
 * choiceFilter('no'); // false
 */
export const choiceFilter = (choice: string): boolean | undefined => (choice === 'yes' ? true : choice === 'no' ? false : undefined);

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;

/**
 * What a follow-up starts from: a job's list entry, or a campaign (which also knows its template's
 * category, so the form starts with it).
 */
export type FollowUpOrigin = Pick<BroadcastListItem, 'broadcastName' | 'template' | 'fromPhoneNumber'> & {
  templateType?: string;
  /** The quick-reply payloads tapped so far (the summary's `buttons`): the dialog offers them as filters. */
  tappedPayloads?: string[];
};

/** The counts that say who a follow-up could reach: a job's summary or a campaign's totals. */
export interface FollowUpCounts {
  sent: number;
  read: number;
  failed: number;
}

export interface FollowUpForm {
  broadcastName: string;
  templateName: string;
  templateLanguage: string;
  templateType: string;
  /** Unread only: how long after the send a recipient must still not have read. */
  notReadAfterHours?: number;
  force?: boolean;
  /** The `outcome` kind's statuses (of REACHED_STATUSES). */
  statuses?: string[];
  filters?: OutcomeFilters;
}

/**
 * Who a follow-up reaches (shapes26 `audience`): the failed, those sent or delivered but not read,
 * or the reached of the chosen statuses; with the outcome filters (issue 38) when given.
 *
 * @example
 * audienceOf('unread', 24); // { statuses: ['SENT', 'DELIVERED'], notReadAfterHours: 24 }
 * audienceOf('outcome', undefined, { replied: false }, ['READ']); // { statuses: ['READ'], replied: false }
 */
export function audienceOf(
  kind: FollowUpKind,
  notReadAfterHours?: number,
  filters: OutcomeFilters = {},
  statuses?: readonly string[],
): Record<string, unknown> {
  if (kind === 'failed') return { statuses: ['FAILED'] };
  const outcome = {
    ...(filters.replied === undefined ? {} : { replied: filters.replied }),
    ...(filters.clicked === undefined ? {} : { clicked: filters.clicked }),
    ...(filters.buttonPayloads?.length ? { buttonPayloads: [...filters.buttonPayloads] } : {}),
  };
  if (kind === 'outcome') return { statuses: [...(statuses?.length ? statuses : REACHED_STATUSES)], ...outcome };
  return { statuses: ['SENT', 'DELIVERED'], ...(notReadAfterHours === undefined ? {} : { notReadAfterHours }), ...outcome };
}

const KIND_WORDS: Record<FollowUpKind, string> = { failed: 'follow-up to failed', unread: 'follow-up to unread', outcome: 'follow-up by outcome' };

/**
 * The form's first values, from the job's list entry: the same sender and template, a name that
 * says what it follows.
 *
 * @example
 * followUpDefaults('failed', { broadcastName: 'Spring', template: { name: 'promo', language: 'en' } } as BroadcastListItem).broadcastName;
 * // 'Spring · follow-up to failed'
 */
export function followUpDefaults(kind: FollowUpKind, job: FollowUpOrigin | undefined): FollowUpForm {
  const name = job?.broadcastName ?? 'Campaign';
  return {
    broadcastName: `${name} · ${KIND_WORDS[kind]}`.slice(0, 200),
    templateName: job?.template?.name ?? '',
    templateLanguage: job?.template?.language ?? '',
    templateType: job?.templateType ?? 'MARKETING',
    ...(kind === 'unread' ? { notReadAfterHours: 24 } : {}),
    ...(kind === 'outcome' ? { statuses: [...REACHED_STATUSES] } : {}),
  };
}

/**
 * The follow-up's body: a broadcast body without `data` (the sender of the original job), plus
 * `audience` and `force` when set.
 *
 * @example
 * followUpBody('failed', form, '4915700000001'); // { broadcastName, fromPhoneNumber: '4915700000001', templateName, …, audience: { statuses: ['FAILED'] } }
 */
export function followUpBody(kind: FollowUpKind, form: FollowUpForm, fromPhoneNumber: string): Record<string, unknown> {
  return {
    broadcastName: form.broadcastName,
    fromPhoneNumber,
    templateName: form.templateName,
    templateLanguage: form.templateLanguage,
    templateType: form.templateType,
    audience: audienceOf(kind, form.notReadAfterHours, form.filters, form.statuses),
    ...(form.force ? { force: true } : {}),
  };
}

/**
 * Whether anyone is in a follow-up of this kind: the failed, the sent not read, or anyone sent (the
 * button is disabled otherwise). A job's summary and a campaign's totals count alike.
 *
 * @example
 * reachesAnyone('unread', { sent: 5, read: 4, failed: 0 }); // true
 */
export function reachesAnyone(kind: FollowUpKind, counts: FollowUpCounts): boolean {
  if (kind === 'failed') return counts.failed > 0;
  return kind === 'unread' ? counts.sent - counts.read > 0 : counts.sent > 0;
}

/** Whether the job has anyone a follow-up of this kind could reach. */
export const hasAudience = (kind: FollowUpKind, status: JobStatusView): boolean => reachesAnyone(kind, status.summary);

/**
 * A campaign as a follow-up's origin: its name, template (with its category) and sender.
 *
 * @example
 * followUpOriginOfCampaign({ name: 'Spring', fromPhoneNumber: '1', template: { name: 'promo', language: 'en', category: 'MARKETING' } }).templateType; // 'MARKETING'
 */
export function followUpOriginOfCampaign(
  campaign: Pick<CampaignView, 'name' | 'fromPhoneNumber' | 'template'> & { totals?: Pick<CampaignView['totals'], 'buttons'> },
): FollowUpOrigin {
  const { name, language, category } = campaign.template;
  const tapped = tappedPayloadsOf(campaign.totals?.buttons);
  return {
    broadcastName: campaign.name,
    template: { name, language },
    fromPhoneNumber: campaign.fromPhoneNumber,
    templateType: category,
    ...(tapped.length ? { tappedPayloads: tapped } : {}),
  };
}
