import { httpOperation } from '../../shared/http/http-operation';
import type { MetaAppSecretSource } from '../../shared/meta-app/ports';
import { verifyMetaSubscription as verifySubscription } from '../../shared/meta-app/webhook-intake';

/** GET /hooks/meta/whatsapp?hub.mode=subscribe&hub.verify_token=…&hub.challenge=… → the challenge as text. */
export const verifyMetaSubscription = httpOperation('meta-signature', async (request, { metaApp }: { metaApp: MetaAppSecretSource }) => {
  const challenge = await verifySubscription(metaApp, {
    mode: request.query['hub.mode'],
    verifyToken: request.query['hub.verify_token'],
    challenge: request.query['hub.challenge'],
  });
  return { statusCode: 200, body: undefined, textBody: challenge };
});
