import type { BroadcastListItem, JobStatusView } from './api-types';

export type FollowUpKind = 'failed' | 'unread';

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;

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
export function followUpDefaults(kind: FollowUpKind, job: BroadcastListItem | undefined): FollowUpForm {
  const name = job?.broadcastName ?? 'Campaign';
  return {
    broadcastName: `${name} · follow-up to ${kind}`.slice(0, 200),
    templateName: job?.template?.name ?? '',
    templateLanguage: job?.template?.language ?? '',
    templateType: 'MARKETING',
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

/** Whether the job has anyone a follow-up of this kind could reach (the button is disabled otherwise). */
export function hasAudience(kind: FollowUpKind, status: JobStatusView): boolean {
  const { summary } = status;
  return kind === 'failed' ? summary.failed > 0 : summary.sent - summary.read > 0;
}
