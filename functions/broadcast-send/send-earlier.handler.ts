import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { sendBulkSchema, sendSingleSchema } from '../../shared/broadcast/earlier-template-send.schema';
import { earlierRecipientOf } from '../../shared/broadcast/earlier-recipients';
import { sendEarlierTemplate, type CostSummary, type EarlierSendDependencies } from '../../shared/broadcast/send-earlier-template';

/** The earlier operations nest the result: `data` = {status, message, data: cost summary}. */
const nested = (message: string, summary: CostSummary) => ({
  statusCode: 200,
  body: broadcastEnvelope(200, message, { status: true, message, data: summary }),
});

export const sendSingle = httpOperation('broadcast-api-key', async (request, dependencies: EarlierSendDependencies) => {
  const body = parseRequest(sendSingleSchema, request.body);
  const summary = await sendEarlierTemplate(dependencies, request.caller, {
    mode: 'single',
    templateName: body.templateName,
    templateLanguage: body.templateLanguage,
    recipients: [earlierRecipientOf(body)],
    broadcastName: body.broadcastName,
  });
  return nested('Message queued successfully', summary);
});

export const sendBulk = httpOperation('broadcast-api-key', async (request, dependencies: EarlierSendDependencies) => {
  const body = parseRequest(sendBulkSchema, request.body);
  const summary = await sendEarlierTemplate(dependencies, request.caller, {
    mode: 'bulk',
    templateName: body.templateName,
    templateLanguage: body.templateLanguage,
    recipients: body.data.map(earlierRecipientOf),
    globalTemplateParams: body.globalTemplateParams,
    broadcastName: body.broadcastName,
  });
  return nested(`Bulk messages queued for ${summary.total_contacts - summary.failed_contacts} of ${summary.total_contacts} contacts`, summary);
});
