/**
 * Success answers of each operation (status, JSON Schema, example) and each surface's error body.
 * Where the contract or the handler fixes a shape it is written out; the rest (`data` of some
 * broadcast reads, the /upstream pass-through answers, which are Meta's) is a permissive schema
 * with an example. The integration suite checks every answer against these (test/support/openapi-conformance.ts).
 */
import { clickSuccesses } from './click-response-schemas';
import type { SurfaceName } from '../../runtime-contract/route-manifest';
import { anyObject, arrayOf, int, json, nullableString, obj, str, type JsonSchema, type SuccessResponse } from './schema-builders';
import { pauseSchema } from './halt-response-schemas';
import { pricingCounts, recipientsPage } from './recipient-response-schemas';
import { templateParametersResponse } from './template-parameters-response';
import { campaignCost, dryRunExample, dryRunResult } from './cost-response-schemas';
import { v1Successes } from './v1-response-schemas';
import { controlSuccesses, sameAnswersAs } from './control-response-schemas';
import { campaignSuccesses } from './campaign-response-schemas';
import { audienceSuccesses } from './audience-response-schemas';
import { peopleSuccesses } from './people-response-schemas';
import { auditSuccesses } from './audit-response-schemas';
import { apiKeySuccesses } from './api-key-response-schemas';
import { contactPolicySuccesses } from './contact-policy-response-schemas';
import { outcomeSummaryProperties } from './outcome-response-schemas';
import { liftSchema } from './lift-response-schemas';
import { waitingSummaryProperties } from './send-window-response-schemas';

export type { JsonSchema } from './schema-builders';

export type { SuccessResponse } from './schema-builders';

const broadcastEnvelope = (data: JsonSchema, statusCode?: number): JsonSchema =>
  obj({
    status: { const: true },
    status_code: statusCode === undefined ? int : { const: statusCode },
    message: str,
    data,
  });
const envelopeExample = (statusCode: number, message: string, data: unknown) => ({ status: true, status_code: statusCode, message, data });
const emptyObject: JsonSchema = { type: 'object', maxProperties: 0 };

const jobIdHeader = {
  'X-Broadcast-Job-Id': { description: 'The job of every accepted send (docs/BROADCAST.md): readable by the status and recipients endpoints.', schema: str },
};
const acceptHeaders = {
  ...jobIdHeader,
  'Idempotent-Replayed': {
    description: '`true` when the answer is the Idempotency-Key\'s first answer, replayed: nothing was sent now (docs/BROADCAST.md "Idempotency")',
    schema: { const: 'true' },
  },
};

const jobSummary: JsonSchema = {
  type: 'object',
  // Open: the counts are described in docs/BROADCAST.md "Status"; only the newer fields are listed.
  additionalProperties: true,
  properties: {
    pricing: pricingCounts,
    cost: campaignCost,
    held: {
      ...int,
      description:
        'Accepted by Meta but held for quality assessment (template pacing): not failed, not sent yet, until a status webhook settles them; present while any recipient is held',
    },
    ...outcomeSummaryProperties,
    lift: liftSchema,
    ...waitingSummaryProperties,
  },
  description: 'Processing totals at this point of the job (docs/BROADCAST.md "Status")',
};
const acceptFailure: JsonSchema = {
  ...obj({ failedAt: str, retryUntil: nullableString }),
  description:
    'Only on a job whose queueing failed part-way (docs/BROADCAST.md "Accepting a job"): retry the request with the same Idempotency-Key before `retryUntil` to queue the rest',
};
const jobView = obj(
  {
    jobId: { type: 'string', description: '`pub_…` for template broadcasts, `msg_…` for free-form and earlier sends' },
    status: str,
    totalRecipients: int,
    totalChunks: int,
    summary: jobSummary,
    route: {
      type: 'string',
      enum: ['marketing_messages', 'cloud_api'],
      description:
        'The API the job’s messages go through, decided at accept: Meta’s Marketing Messages API or Cloud API (docs/BROADCAST.md "Marketing Messages API"); the recipients list’s `sentVia` says which carried each message',
    },
    acceptFailure,
    cancelRequestedAt: {
      type: 'string',
      description:
        'When a cancel was requested, on a job that does not read CANCELLED: still stopping, or the cancel came after every recipient was sent, failed or unknown (docs/BROADCAST.md "Cancelling")',
    },
    followUpOf: { type: 'string', description: 'Only on a follow-up: the job whose recipients it was sent to (docs/BROADCAST.md "Follow-ups")' },
    pause: pauseSchema,
  },
  ['jobId', 'status', 'totalRecipients', 'totalChunks'],
);
const jobExample = { jobId: 'pub_01JD3X9Q7', status: 'PROCESSING', totalRecipients: 1001, chunkSize: 1000, totalChunks: 2 };

const earlierFailure = obj({ index: int, failureReasonCode: str, message: str });
const costSummary = obj(
  {
    total_contacts: int,
    failed_contacts: int,
    estimated_cost: { type: 'number' },
    oldBalance: { type: 'number' },
    newEstimatedBalance: { type: 'number' },
    failures: {
      ...arrayOf(earlierFailure),
      description:
        'Each refused recipient in request order (present when failed_contacts > 0): its index in data, its reason code, the field and rule of a broken number',
    },
  },
  ['total_contacts', 'failed_contacts', 'estimated_cost', 'oldBalance', 'newEstimatedBalance'],
);
const earlierSendBody = broadcastEnvelope(obj({ status: { type: 'boolean' }, message: str, data: costSummary }), 200);
const earlierExample = envelopeExample(200, 'Template message sent', {
  status: true,
  message: 'Template message sent',
  data: { total_contacts: 1, failed_contacts: 0, estimated_cost: 0.05, oldBalance: 100, newEstimatedBalance: 99.95 },
});

/** Success answers by `surface:operation`. */
const successes: Readonly<Record<string, SuccessResponse[]>> = {
  'broadcast:health': [
    {
      status: '200',
      description: 'The service is available (no key, number or template is checked)',
      content: json(
        obj({ status: { const: 'ok' }, timestamp: str, service: str, version: str, endpoints: anyObject }, ['status', 'timestamp', 'service', 'version']),
        {
          status: 'ok',
          timestamp: '2026-03-01T09:00:00.000Z',
          service: 'whatsapp-broadcast-platform',
          version: '2.0.0',
        },
      ),
    },
  ],
  'broadcast:listPhoneNumbers': [
    {
      status: '200',
      description: 'Sender numbers of the key’s organization (an empty list: no connected number)',
      content: json(
        broadcastEnvelope(arrayOf(obj({ phone_number: str, waba_id: str, phone_number_id: str })), 200),
        envelopeExample(200, 'Phone numbers fetched successfully', [
          { phone_number: '15550001111', waba_id: '102290129340398', phone_number_id: '106540352242922' },
        ]),
      ),
    },
  ],
  'broadcast:listTemplates': [
    {
      status: '200',
      description: 'Approved templates of the sender',
      content: json(
        broadcastEnvelope(
          arrayOf({
            ...obj(
              {
                name: str,
                status: str,
                category: str,
                language: str,
                quality: str,
                components: arrayOf(anyObject),
                parameters: templateParametersResponse,
                maxPrice: obj({ bidAmount: str, bidStrategy: str }, ['bidAmount']),
                rejectedReason: str,
              },
              ['name', 'status', 'category', 'language'],
            ),
          }),
          200,
        ),
        envelopeExample(200, 'Templates fetched successfully', [
          {
            name: 'order_update',
            status: 'APPROVED',
            category: 'UTILITY',
            language: 'en_US',
            quality: 'GREEN',
            components: [{ type: 'BODY', text: 'Hello {{1}}, your order {{2}} has shipped' }],
            parameters: { sendable: true, body: { format: 'POSITIONAL', count: 2 } },
          },
          {
            name: 'order_shipped',
            status: 'APPROVED',
            category: 'UTILITY',
            language: 'en_US',
            components: [{ type: 'HEADER' }, { type: 'BODY', text: 'Hi {{1}}, your order {{2}} is on its way.' }, { type: 'BUTTONS' }],
            parameters: {
              sendable: true,
              header: { type: 'IMAGE' },
              body: { format: 'POSITIONAL', count: 2 },
              buttons: [{ index: 0, type: 'URL', dynamic: true, maxLength: 1970 }],
            },
          },
        ]),
      ),
    },
  ],
  'broadcast:sendTemplateBroadcast': [
    {
      status: '200',
      description:
        '1 to 1,000 recipients: queued, no job to poll in the body (the header names it); with `?dryRun=true`, the dry run (nothing sent, no job header)',
      headers: acceptHeaders,
      content: json(broadcastEnvelope({ anyOf: [emptyObject, dryRunResult] }, 200), envelopeExample(200, 'Bulk broadcast queued for 2 recipients', {})),
    },
    {
      status: '202',
      description: '1,001 to 10,000 recipients (or a scheduled broadcast): a job in chunks of 1,000',
      headers: acceptHeaders,
      content: json(
        broadcastEnvelope(
          obj({ jobId: { type: 'string', pattern: '^pub_' }, status: str, totalRecipients: int, chunkSize: int, totalChunks: int }, [
            'jobId',
            'status',
            'totalRecipients',
            'totalChunks',
          ]),
          202,
        ),
        envelopeExample(202, 'Broadcast accepted for background processing', jobExample),
      ),
    },
  ],
  'broadcast:followUp': [
    {
      status: '200',
      description:
        'With `?dryRun=true`: the dry run of exactly the request the follow-up would accept, with its parent and who it matched (nothing sent, no job)',
      content: json(
        broadcastEnvelope(
          {
            allOf: [
              dryRunResult,
              obj({ followUpOf: str, audience: obj({ matched: int, optedOut: int, resendCapped: int, alreadyResent: int }, ['matched', 'optedOut']) }),
            ],
          },
          200,
        ),
        envelopeExample(200, 'Dry run of a follow-up of pub_01JD3X9Q7: 2 of 3 matching recipients sendable; nothing was sent', {
          ...dryRunExample,
          followUpOf: 'pub_01JD3X9Q7',
          audience: { matched: 3, optedOut: 1 },
        }),
      ),
    },
    {
      status: '202',
      description: 'The follow-up job (always a job to poll, whatever its size), its parent and who it reached',
      headers: jobIdHeader,
      content: json(
        broadcastEnvelope(
          obj(
            {
              jobId: { type: 'string', pattern: '^pub_' },
              status: str,
              totalRecipients: int,
              chunkSize: int,
              totalChunks: int,
              scheduledAt: str,
              followUpOf: str,
              audience: obj({ matched: int, optedOut: int, resendCapped: int, alreadyResent: int }, ['matched', 'optedOut']),
            },
            ['jobId', 'status', 'totalRecipients', 'totalChunks', 'followUpOf', 'audience'],
          ),
          202,
        ),
        envelopeExample(202, 'Follow-up of pub_01JD3X9Q7 accepted for 2 recipients', {
          ...jobExample,
          totalRecipients: 2,
          totalChunks: 1,
          followUpOf: 'pub_01JD3X9Q7',
          audience: { matched: 3, optedOut: 1 },
        }),
      ),
    },
  ],
  'broadcast:getJobStatus': [
    {
      status: '200',
      description: 'The job’s state and summary',
      content: json(
        broadcastEnvelope(jobView, 200),
        envelopeExample(200, 'Job is PROCESSING', { ...jobExample, summary: { sent: 400, failed: 2, pending: 599 } }),
      ),
    },
  ],
  'broadcast:listRecipients': [
    {
      status: '200',
      description: 'Per-recipient results, a page at a time (JSON) or all of them (`format=csv`)',
      content: {
        ...json(
          broadcastEnvelope(recipientsPage, 200),
          envelopeExample(200, '1 recipients', {
            recipients: [
              {
                countryCode: '49',
                toPhoneNumber: '1701234567',
                status: 'DELIVERED',
                pricing: { category: 'marketing', type: 'regular', billable: true, pricingModel: 'PMP' },
              },
            ],
            nextCursor: null,
          }),
        ),
        'text/csv': { schema: str },
      },
    },
  ],
  'broadcast:listBroadcasts': [
    {
      status: '200',
      description: 'The organization’s broadcasts, newest first',
      content: json(broadcastEnvelope(anyObject, 200), envelopeExample(200, '1 broadcasts', { broadcasts: [jobExample] })),
    },
  ],
  'broadcast:sendFreeform': [
    {
      status: '200',
      description: 'Queued (same answer for all eight types)',
      headers: jobIdHeader,
      content: json(broadcastEnvelope(emptyObject, 200), envelopeExample(200, 'Free-form text message queued for delivery', {})),
    },
  ],
  'broadcast:cancelJob': [
    {
      status: '200',
      description: 'The job, cancelled: its id, status and summary',
      content: json(
        broadcastEnvelope(obj({ jobId: str, status: str, summary: jobSummary }, ['jobId', 'status']), 200),
        envelopeExample(200, 'Job is CANCELLED', { jobId: jobExample.jobId, status: 'CANCELLED', summary: { sent: 23, pending: 977 } }),
      ),
    },
  ],
  'broadcast:resumeJob': [
    {
      status: '200',
      description: 'The job, resumed after Meta refused its business account: its id, status and summary',
      content: json(
        broadcastEnvelope(obj({ jobId: str, status: str, summary: jobSummary }, ['jobId', 'status']), 200),
        envelopeExample(200, 'Job is PROCESSING', { jobId: jobExample.jobId, status: 'PROCESSING', summary: { sent: 23, pending: 977 } }),
      ),
    },
  ],
  'broadcast:generateKey': [
    {
      status: '200',
      description: 'A new API key for the sender (shown once)',
      content: json(
        broadcastEnvelope(obj({ apiKey: str }), 200),
        envelopeExample(200, 'API key generated; store it now, it is not shown again', { apiKey: '<API_KEY>' }),
      ),
    },
  ],
  'broadcast:registerWebhook': [
    {
      status: '201',
      description: 'Registered; the signing secret is shown once',
      content: json(
        broadcastEnvelope(anyObject, 201),
        envelopeExample(201, 'Webhook endpoint registered; store the secret now, it is not shown again', {
          id: 'wh_1',
          url: 'https://example.com/hooks',
          secret: '<SECRET>',
        }),
      ),
    },
  ],
  'broadcast:listWebhooks': [
    {
      status: '200',
      description: 'Registered endpoints',
      content: json(broadcastEnvelope(obj({ webhooks: arrayOf(anyObject) }), 200), envelopeExample(200, '0 webhook endpoint(s)', { webhooks: [] })),
    },
  ],
  'broadcast:deleteWebhook': [
    {
      status: '200',
      description: 'Deleted',
      content: json(broadcastEnvelope(obj({ id: str }), 200), envelopeExample(200, 'Webhook endpoint deleted', { id: 'wh_1' })),
    },
  ],
  'broadcast:testWebhook': [
    {
      status: '202',
      description: 'A test event queued for delivery',
      content: json(broadcastEnvelope(obj({ eventId: str }), 202), envelopeExample(202, 'Test event queued for delivery', { eventId: 'evt_1' })),
    },
  ],
  'broadcast:redeliverWebhook': [
    {
      status: '202',
      description: 'Events queued for redelivery',
      content: json(broadcastEnvelope(obj({ queued: int }), 202), envelopeExample(202, '3 event(s) queued for redelivery', { queued: 3 })),
    },
  ],
  'broadcast:sendSingle': [{ status: '200', description: 'Sent, with its cost summary', content: json(earlierSendBody, earlierExample) }],
  'broadcast:sendBulk': [
    { status: '200', description: 'Sent (invalid numbers counted in failed_contacts), with the cost summary', content: json(earlierSendBody, earlierExample) },
  ],
  'organization:removeEmployeeBulk': [
    {
      status: '200',
      description: 'Found users removed from the organization (partial success when some were not found)',
      content: json(
        obj({
          statusCode: { const: 200 },
          status: { const: 'success' },
          message: str,
          data: obj({ removedEmails: arrayOf(str), notFoundEmails: arrayOf(str) }),
        }),
        {
          statusCode: 200,
          status: 'success',
          message: 'Employees removed successfully',
          data: { removedEmails: ['ada@example.com'], notFoundEmails: [] },
        },
      ),
    },
  ],
  ...v1Successes,
  ...controlSuccesses({ broadcastEnvelope, envelopeExample, jobSummary, jobExample }),
  ...campaignSuccesses,
  ...audienceSuccesses,
  ...peopleSuccesses,
  ...auditSuccesses,
  ...apiKeySuccesses,
  ...contactPolicySuccesses,
  'docs:docsPage': [{ status: '200', description: 'The rendered reference (Swagger UI, no CDN)', content: { 'text/html': { schema: str } } }],
  'docs:openApiDocument': [
    {
      status: '200',
      description: 'This document',
      content: json({ type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: '3.1.0' } } }),
    },
  ],
  'docs:docsAsset': [
    {
      status: '200',
      description: 'A file of the renderer (swagger-ui-dist)',
      content: { 'text/css': { schema: str }, 'application/javascript': { schema: str } },
      headers: { 'Cache-Control': { description: 'Cacheable for a day', schema: str } },
    },
  ],
  'broadcast:consolePage': [
    {
      status: '200',
      description: 'The campaign console (docs/CONSOLE.md): the page that loads its bundled script; sign in there with the API key',
      content: { 'text/html': { schema: str } },
      headers: { 'Content-Security-Policy': { description: 'Own files only, API calls to this origin, no inline script', schema: str } },
    },
  ],
  'broadcast:consoleAsset': [
    {
      status: '200',
      description: 'A file of the console: its script, style sheet, or failure-codes.json (the failure-reason table)',
      content: { 'application/javascript': { schema: str }, 'text/css': { schema: str }, 'application/json': { schema: { type: 'array' } } },
      headers: { 'Cache-Control': { description: 'Cacheable for an hour', schema: str } },
    },
  ],
  'webhooks:verifyMetaSubscription': [
    { status: '200', description: 'The `hub.challenge`, echoed as text', content: { 'text/plain': { schema: str, example: '1158201444' } } },
  ],
  'webhooks:receiveMetaEvents': [
    { status: '200', description: 'Stored for processing', content: json(obj({ received: { const: true } }), { received: true }) },
  ],
  ...clickSuccesses,
};

/** /upstream answers are Meta's Graph answers passed through (their status and body). */
const upstreamSuccess = (binary: boolean): SuccessResponse[] => [
  binary
    ? {
        status: '200',
        description: 'The media file, in its own media type',
        content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
      }
    : {
        status: '2XX',
        description: 'The Graph API’s answer, passed through (docs/UPSTREAM-WRAPPER.md)',
        content: json(anyObject, { data: [], paging: { cursors: { before: 'QVFI', after: 'QVFI' } } }),
      },
];

export function successResponsesOf(surface: SurfaceName, operation: string, binaryResponse: boolean): SuccessResponse[] {
  if (surface === 'upstream') return upstreamSuccess(binaryResponse);
  const key = `${surface}:${operation}`;
  const found = successes[sameAnswersAs[key] ?? key];
  if (!found) throw new Error(`OpenAPI: no success response described for ${surface}:${operation} (shared/openapi/response-schemas.ts)`);
  return found;
}
