/** Success answers of the campaign routes (docs/CAMPAIGNS.md): the created draft, the list and one campaign's view. */
import { campaignCost } from './cost-response-schemas';
import { campaignDryRunSuccess } from './control-response-schemas';
import { outcomeSummaryProperties } from './outcome-response-schemas';
import { waitingSummaryProperties } from './send-window-response-schemas';
import { attributionWindowSchema, holdoutSchema, liftSchema } from './lift-response-schemas';
import { canaryViewSchema, pauseSchema, sendRulesViewSchema } from './halt-response-schemas';
import { arrayOf, int, json, nullableString, obj, str, type JsonSchema, type SuccessResponse } from './schema-builders';

const broadcastEnvelope = (data: JsonSchema, statusCode: number): JsonSchema =>
  obj({ status: { const: true }, status_code: { const: statusCode }, message: str, data });
const envelopeExample = (statusCode: number, message: string, data: unknown) => ({ status: true, status_code: statusCode, message, data });

const CAMPAIGN_STATES = [
  'DRAFT',
  'SCHEDULED',
  'LAUNCHING',
  'SENDING',
  'WAITING_FOR_LIMIT',
  'PAUSED',
  'COMPLETED',
  'COMPLETED_WITH_FAILURES',
  'CANCELLED',
  'FAILED',
];
const state: JsonSchema = { type: 'string', enum: CAMPAIGN_STATES, description: 'docs/CAMPAIGNS.md "States and totals"' };
const counts = (names: string[]): JsonSchema => obj(Object.fromEntries(names.map((name) => [name, int])));
/** The totals' outcome counts (optional: present as the job summary has them). */
const withOutcomes = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  properties: { ...(schema.properties as Record<string, JsonSchema>), ...outcomeSummaryProperties, ...waitingSummaryProperties },
});

const campaignView: JsonSchema = obj(
  {
    campaignId: { type: 'string', pattern: '^cmp_' },
    name: str,
    state,
    fromPhoneNumber: str,
    template: obj({ name: str, language: str, category: str }),
    audience: { type: 'object', description: 'The audiences, filter and exclusions as created' },
    totals: {
      ...withOutcomes(counts(['audience', 'sendable', 'queued', 'sent', 'delivered', 'read', 'failed', 'unknown', 'optedOut', 'skipped', 'cancelled'])),
      description: 'One truth across the whole campaign (docs/CAMPAIGNS.md "States and totals"); the outcome counts as the job summary gives them',
    },
    skippedByReason: counts(['DUPLICATE', 'EXCLUDED', 'FILTERED_OUT', 'MISSING_ATTRIBUTE', 'INVALID_PARAMETER']),
    failuresByCode: { type: 'object', additionalProperties: int, description: 'Failures by reason code, opt-outs and skipped members apart' },
    cost: { anyOf: [campaignCost, { type: 'null' }] },
    jobId: nullableString,
    createdAt: str,
    launchedAt: nullableString,
    startedAt: nullableString,
    finishedAt: nullableString,
    scheduledAt: str,
    waitingUntil: { type: 'string', description: 'Only while WAITING_FOR_LIMIT: when Meta’s messaging limit frees enough to go on' },
    pause: { ...pauseSchema, description: 'Only while PAUSED, as a job’s status shows it' },
    attributionWindowHours: attributionWindowSchema,
    holdout: holdoutSchema,
    lift: liftSchema,
    sendRules: sendRulesViewSchema,
    canary: canaryViewSchema,
  },
  [
    'campaignId',
    'name',
    'state',
    'fromPhoneNumber',
    'template',
    'audience',
    'totals',
    'skippedByReason',
    'failuresByCode',
    'cost',
    'jobId',
    'createdAt',
    'launchedAt',
    'startedAt',
    'finishedAt',
  ],
);

const zeroTotals = { audience: 0, sendable: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, unknown: 0, optedOut: 0, skipped: 0, cancelled: 0 };
const campaignExample = {
  campaignId: 'cmp_01JD3X9Q7ZK5M2',
  name: 'Spring sale',
  state: 'SENDING',
  fromPhoneNumber: '15550001111',
  template: { name: 'spring_sale', language: 'en_US', category: 'MARKETING' },
  audience: { audienceIds: ['aud_01JD3X8', 'contacts'], filter: { tags: { any: ['vip'] } }, excludeAudienceIds: ['aud_01JD3X9'] },
  totals: { ...zeroTotals, audience: 3700, sendable: 3290, queued: 1290, sent: 2000, delivered: 1800, read: 900, optedOut: 1, skipped: 409 },
  skippedByReason: { DUPLICATE: 300, EXCLUDED: 59, FILTERED_OUT: 0, MISSING_ATTRIBUTE: 50, INVALID_PARAMETER: 0 },
  failuresByCode: {},
  cost: null,
  jobId: 'pub_01JD3XA2',
  createdAt: '2026-12-01T09:00:00.000Z',
  launchedAt: '2026-12-01T09:05:00.000Z',
  startedAt: '2026-12-01T09:05:00.000Z',
  finishedAt: null,
};

export const campaignSuccesses: Readonly<Record<string, SuccessResponse[]>> = {
  'broadcast:createCampaign': [
    {
      status: '201',
      description: 'Stored as a draft: nothing is sent until it is launched',
      content: json(
        broadcastEnvelope(obj({ campaignId: { type: 'string', pattern: '^cmp_' }, name: str, state: { const: 'DRAFT' }, createdAt: str }), 201),
        envelopeExample(201, 'Campaign cmp_01JD3X9Q7ZK5M2 created as a draft', {
          campaignId: 'cmp_01JD3X9Q7ZK5M2',
          name: 'Spring sale',
          state: 'DRAFT',
          createdAt: '2026-12-01T09:00:00.000Z',
        }),
      ),
    },
  ],
  'broadcast:listCampaigns': [
    {
      status: '200',
      description: 'The organization’s campaigns, newest first',
      content: json(
        broadcastEnvelope(obj({ campaigns: arrayOf(campaignView), nextCursor: nullableString }), 200),
        envelopeExample(200, '1 campaigns', { campaigns: [campaignExample], nextCursor: null }),
      ),
    },
  ],
  'broadcast:launchCampaign': [
    {
      status: '202',
      description: 'Launched: its job exists and its audiences are being expanded (SCHEDULED: from its scheduledAt); GET /campaigns/{campaignId} follows it',
      headers: {
        'Idempotent-Replayed': { description: '`true` when the answer is the Idempotency-Key\u2019s first launch, replayed', schema: { const: 'true' } },
      },
      content: json(
        broadcastEnvelope(obj({ campaignId: { type: 'string', pattern: '^cmp_' }, state: { type: 'string', enum: ['LAUNCHING', 'SCHEDULED'] } }), 202),
        envelopeExample(202, 'Campaign cmp_01JD3X9Q7ZK5M2 is LAUNCHING', { campaignId: 'cmp_01JD3X9Q7ZK5M2', state: 'LAUNCHING' }),
      ),
    },
    campaignDryRunSuccess,
  ],
  'broadcast:getCampaign': [
    {
      status: '200',
      description: 'The campaign’s state and totals',
      content: json(broadcastEnvelope(campaignView, 200), envelopeExample(200, 'Campaign is SENDING', campaignExample)),
    },
  ],
};
