import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { listSenders } from '../../shared/broadcast/list-senders';
import type { SenderDirectory } from '../../shared/broadcast/ports';

export const listPhoneNumbers = httpOperation('broadcast-api-key', async (request, { senders }: { senders: SenderDirectory }) => {
  const caller = request.caller;
  const numbers = await listSenders(senders, caller);
  return {
    statusCode: 200,
    body: broadcastEnvelope(
      200,
      numbers.length > 0 ? 'Phone numbers fetched successfully' : 'No connected phone numbers found',
      numbers.map((sender) => ({ phone_number: sender.phoneNumber, waba_id: sender.wabaId, phone_number_id: sender.phoneNumberId })),
    ),
  };
});
