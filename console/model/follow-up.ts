import type { BroadcastListItem, CampaignView, JobStatusView } from './api-types';

export type FollowUpKind = 'failed' | 'unread';

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;

/**
 * What a follow-up starts from: a job's list entry, or a campaign (which also knows its template's
 * category, so the form starts with it).
 */
export type FollowUpOrigin = Pick<BroadcastListItem, 'broadcastName' | 'template' | 'fromPhoneNumber'> & { templateType?: string };

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
}

/**
 * Who a follow-up reaches (shapes26 `audience`): the failed, or those sent or delivered but not read.
 *
 * @example
 * audienceOf('unread', 24); // { statuses: ['SENT', 'DELIVERED'], notReadAfterHours: 24 }
 */
export function audienceOf(kind: FollowUpKind, notReadAfterHours?: number): Record<string, unknown> {
  if (kind === 'failed') return { statuses: ['FAILED'] };
  return { statuses: ['SENT', 'DELIVERED'], ...(notReadAfterHours === undefined ? {} : { notReadAfterHours }) };
}

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
    broadcastName: `${name} · follow-up to ${kind}`.slice(0, 200),
    templateName: job?.template?.name ?? '',
    templateLanguage: job?.template?.language ?? '',
    templateType: job?.templateType ?? 'MARKETING',
    ...(kind === 'unread' ? { notReadAfterHours: 24 } : {}),
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
    audience: audienceOf(kind, form.notReadAfterHours),
    ...(form.force ? { force: true } : {}),
  };
}

/**
 * Whether anyone is in a follow-up of this kind: the failed, or the sent not read (the button is
 * disabled otherwise). A job's summary and a campaign's totals count alike.
 *
 * @example
 * reachesAnyone('unread', { sent: 5, read: 4, failed: 0 }); // true
 */
export const reachesAnyone = (kind: FollowUpKind, counts: FollowUpCounts): boolean => (kind === 'failed' ? counts.failed > 0 : counts.sent - counts.read > 0);

/** Whether the job has anyone a follow-up of this kind could reach. */
export const hasAudience = (kind: FollowUpKind, status: JobStatusView): boolean => reachesAnyone(kind, status.summary);

/**
 * A campaign as a follow-up's origin: its name, template (with its category) and sender.
 *
 * @example
 * followUpOriginOfCampaign({ name: 'Spring', fromPhoneNumber: '1', template: { name: 'promo', language: 'en', category: 'MARKETING' } }).templateType; // 'MARKETING'
 */
export function followUpOriginOfCampaign(campaign: Pick<CampaignView, 'name' | 'fromPhoneNumber' | 'template'>): FollowUpOrigin {
  const { name, language, category } = campaign.template;
  return { broadcastName: campaign.name, template: { name, language }, fromPhoneNumber: campaign.fromPhoneNumber, templateType: category };
}
