/**
 * The answers of the job and campaign controls (a person's pause of a job; a campaign's pause,
 * resume and cancel; docs/BROADCAST.md "Pausing a job", docs/CAMPAIGNS.md "Pause, resume and cancel"),
 * built with the broadcast envelope of response-schemas.ts, and the campaign routes that answer as a job's.
 */
import { anyObject, json, obj, str, type JsonSchema, type SuccessResponse } from './schema-builders';

interface EnvelopeBuilders {
  broadcastEnvelope: (data: JsonSchema, statusCode?: number) => JsonSchema;
  envelopeExample: (statusCode: number, message: string, data: unknown) => unknown;
  jobSummary: JsonSchema;
  jobExample: { jobId: string };
}

/** A campaign control's answer: the campaign and the state it reads now. */
const campaignControlView = obj({ campaignId: { type: 'string', pattern: '^cmp_' }, state: str }, ['campaignId', 'state']);

export function controlSuccesses({ broadcastEnvelope, envelopeExample, jobSummary, jobExample }: EnvelopeBuilders): Record<string, SuccessResponse[]> {
  const campaignControl = (description: string, state: string): SuccessResponse[] => [
    { status: '200', description, content: json(broadcastEnvelope(campaignControlView, 200), envelopeExample(200, `Campaign is ${state}`, { campaignId: 'cmp_01JD3X9Q7', state })) },
  ];
  return {
    'broadcast:pauseJob': [
      {
        status: '200',
        description: 'The job, held until resumed by a person: its id, status, pause and summary (docs/BROADCAST.md "Pausing a job")',
        content: json(
          broadcastEnvelope(obj({ jobId: str, status: str, pause: anyObject, summary: jobSummary }, ['jobId', 'status', 'pause']), 200),
          envelopeExample(200, 'Job is PAUSED', {
            jobId: jobExample.jobId,
            status: 'PAUSED',
            pause: { reason: 'PAUSED_BY_USER', since: '2026-03-01T09:00:04.000Z', failsAt: null, pausedBy: 'user', by: 'cred_01JD3X9Q7' },
            summary: { sent: 23, pending: 977 },
          }),
        ),
      },
    ],
    'broadcast:pauseCampaign': campaignControl('The campaign, paused by a person: nothing more is sent until it is resumed (docs/CAMPAIGNS.md "Pause, resume and cancel")', 'PAUSED'),
    'broadcast:resumeCampaign': campaignControl('The campaign, resumed: its held recipients are sent, each exactly once', 'SENDING'),
    'broadcast:cancelCampaign': campaignControl('The campaign, cancelled: nothing more is sent; a draft never sends', 'CANCELLED'),
  };
}

/** Operations answering exactly as another does: a campaign's recipients and follow-up are its job's (docs/CAMPAIGNS.md). */
export const sameAnswersAs: Readonly<Record<string, string>> = {
  'broadcast:listCampaignRecipients': 'broadcast:listRecipients',
  'broadcast:campaignFollowUp': 'broadcast:followUp',
};
