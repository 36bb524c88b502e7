/**
 * How a job's pause is shown and announced, whoever paused it (Meta's refusal of the account:
 * account-hold.ts; a person: pause-job.ts): the pause view of the status answer, the broadcasts list
 * and the events, `job.paused` for every job held and `campaign.paused` for a campaign's job
 * (docs/CUSTOMER-WEBHOOKS.md "Events").
 */
import { newCustomerEvent } from '../customer-events/event-envelope';
import type { CustomerEvent } from '../customer-events/ports';
import type { BroadcastJob } from './broadcast-job';
import type { JobPause, PausedBy } from './ports';
import type { HaltFigures } from '../send-rules/halt-figures';

/** Why a job is held, as the status answer, the broadcasts list and `job.paused` show it. */
export interface JobPauseView {
  reason: string;
  since: string;
  /** When the remaining recipients fail TEMPLATE_PAUSED unless the template is approved again; null: held until resumed. */
  failsAt: string | null;
  /** Who paused it: `meta` (Meta: its template or a refusal of the account), `user` (a person: pause-job.ts), `canary` (the campaign's canary or halt thresholds). */
  pausedBy: PausedBy;
  /** A person's pause: the credential (API key id) that paused it. */
  by?: string;
  /** Meta's error code, when a refusal of the account paused it. */
  code?: number;
  /** Meta's words with that code. */
  text?: string;
  /** A halt by the campaign's canary or halt thresholds (`pausedBy: 'canary'`, reason CANARY_HALTED): the measured rates beside their thresholds. */
  halt?: HaltFigures;
}

/**
 * A stored pause as it is shown.
 *
 * @example
 * pauseView({ pausedAt: '2026-11-02T09:00:00.000Z', reason: 'ACCOUNT_LOCKED', pausedBy: 'meta', code: 131031, text: 'Account has been locked' });
 * // { reason: 'ACCOUNT_LOCKED', since: '2026-11-02T09:00:00.000Z', failsAt: null, pausedBy: 'meta', code: 131031, text: 'Account has been locked' }
 */
export const pauseView = (pause: JobPause): JobPauseView => ({
  reason: pause.reason,
  since: pause.pausedAt,
  failsAt: pause.failsAt ?? null,
  pausedBy: pause.pausedBy ?? 'meta',
  ...(pause.code !== undefined ? { code: pause.code } : {}),
  ...(pause.text !== undefined ? { text: pause.text } : {}),
  ...(pause.by !== undefined ? { by: pause.by } : {}),
  ...(pause.halt !== undefined ? { halt: pause.halt } : {}),
});

/**
 * The campaign a job runs, when it is a campaign's job (`campaignId` on the job).
 *
 * @example
 * campaignIdOf({ ...job, campaignId: 'cmp_1' }); // 'cmp_1'
 */
export const campaignIdOf = (job: BroadcastJob): string | undefined => (job.kind === 'template' ? job.campaignId : undefined);

/** Where pause events go; absent: none. */
export interface PauseEventPorts {
  events?: { publish(organizationId: string, event: CustomerEvent): Promise<void> };
}

/**
 * `job.paused` for the job and, when it is a campaign's job, `campaign.paused`. Each id comes from
 * the job (or campaign) and the pause's time, so two workers announcing one pause send one event each.
 *
 * @example
 * await announcePause({ events }, job, { pausedAt: now.toISOString(), reason: 'PAUSED_BY_USER', pausedBy: 'user', by: 'cred_1' }, now);
 */
export async function announcePause(ports: PauseEventPorts, job: BroadcastJob, pause: JobPause, now: Date): Promise<void> {
  if (!ports.events) return;
  const view = pauseView(pause);
  await ports.events.publish(
    job.organizationId,
    newCustomerEvent({
      type: 'job.paused',
      sourceKey: `${job.jobId}:${pause.pausedAt}`,
      createdAt: now,
      data: {
        jobId: job.jobId,
        kind: job.kind,
        status: 'PAUSED',
        fromPhoneNumber: job.fromPhoneNumber,
        broadcastName: 'broadcastName' in job ? (job.broadcastName ?? null) : null,
        totalRecipients: job.totalRecipients,
        pause: view,
      },
    }),
  );
  const campaignId = campaignIdOf(job);
  if (campaignId === undefined) return;
  await ports.events.publish(
    job.organizationId,
    newCustomerEvent({
      type: 'campaign.paused',
      sourceKey: `${campaignId}:${pause.pausedAt}`,
      createdAt: now,
      data: { campaignId, jobId: job.jobId, state: 'PAUSED', fromPhoneNumber: job.fromPhoneNumber, pause: view },
    }),
  );
}
