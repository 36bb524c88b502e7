/**
 * The answers of the job and campaign controls (a person's pause of a job; a campaign's pause,
 * resume and cancel; docs/BROADCAST.md "Pausing a job", docs/CAMPAIGNS.md "Pause, resume and cancel"),
 * built with the broadcast envelope of response-schemas.ts, and the campaign routes that answer as a job's.
 */
import { anyObject, json, obj, str, type JsonSchema, type SuccessResponse } from './schema-builders';
import { sendWindowPlanSchema } from './send-window-response-schemas';

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
    {
      status: '200',
      description,
      content: json(broadcastEnvelope(campaignControlView, 200), envelopeExample(200, `Campaign is ${state}`, { campaignId: 'cmp_01JD3X9Q7', state })),
    },
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
    'broadcast:pauseCampaign': campaignControl(
      'The campaign, paused by a person: nothing more is sent until it is resumed (docs/CAMPAIGNS.md "Pause, resume and cancel")',
      'PAUSED',
    ),
    'broadcast:resumeCampaign': campaignControl('The campaign, resumed: its held recipients are sent, each exactly once', 'SENDING'),
    'broadcast:cancelCampaign': campaignControl('The campaign, cancelled: nothing more is sent; a draft never sends', 'CANCELLED'),
  };
}

/** Operations answering exactly as another does: a campaign's recipients and follow-up are its job's (docs/CAMPAIGNS.md). */
export const sameAnswersAs: Readonly<Record<string, string>> = {
  'broadcast:listCampaignRecipients': 'broadcast:listRecipients',
  'broadcast:campaignFollowUp': 'broadcast:followUp',
};

const count = { type: 'integer', minimum: 0 } as const;
/** `?dryRun=true` of the launch (docs/CAMPAIGNS.md "Dry run"): what it would do, nothing sent. */
export const campaignDryRunSuccess: SuccessResponse = {
  status: '200',
  description: 'With `dryRun=true`: what the launch would do, read with the expander\u2019s rules; nothing is sent or written (docs/CAMPAIGNS.md "Dry run")',
  content: json(
    obj({
      status: { const: true },
      status_code: { const: 200 },
      message: str,
      data: obj(
        {
          audience: obj({ members: count, duplicates: count, optedOut: count, excluded: count, filteredOut: count, missingAttribute: count, invalid: count }, [
            'members',
            'duplicates',
            'optedOut',
            'excluded',
            'missingAttribute',
            'invalid',
          ]),
          sendable: count,
          estimatedCost: anyObject,
          messagingLimit: obj(
            {
              tier: str,
              headroom: { type: ['integer', 'null'] },
              plan: { type: 'array', items: obj({ from: str, recipients: count }, ['from', 'recipients']) },
            },
            ['tier', 'headroom', 'plan'],
          ),
          sample: { type: 'array', items: anyObject, maxItems: 3 },
          estimated: { type: 'boolean' },
          membersRead: count,
          sendWindow: sendWindowPlanSchema,
        },
        ['audience', 'sendable', 'messagingLimit', 'sample', 'estimated', 'membersRead'],
      ),
    }),
    {
      status: true,
      status_code: 200,
      message: 'Dry run of campaign cmp_01JD3X9Q7ZK5M2: 3444 sendable; nothing was sent',
      data: {
        audience: { members: 3700, duplicates: 305, optedOut: 1, excluded: 0, filteredOut: 0, missingAttribute: 50, invalid: 0 },
        sendable: 3344,
        estimatedCost: { currency: 'USD', amount: '36.78', priced: 3344, unpriced: 0, byCategory: { marketing: { count: 3344, amount: '36.78' } } },
        messagingLimit: {
          tier: 'TIER_2K',
          headroom: 2000,
          plan: [
            { from: '2026-12-01T10:00:00.000Z', recipients: 2000 },
            { from: '2026-12-02T11:00:00.000Z', recipients: 1344 },
          ],
        },
        sample: [
          {
            messaging_product: 'whatsapp',
            recipient_type: 'individual',
            to: '919800000001',
            type: 'template',
            template: { name: 'spring_sale', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }] },
          },
        ],
        estimated: false,
        membersRead: 3700,
      },
    },
  ),
};
