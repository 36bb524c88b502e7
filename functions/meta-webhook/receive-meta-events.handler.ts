import { httpOperation } from '../../shared/http/http-operation';
import type { MetaAppSecretSource, MetaEventQueue } from '../../shared/meta-app/ports';
import { acceptMetaEvents } from '../../shared/meta-app/webhook-intake';
import type { WebhookSourceGuard } from '../../shared/meta-app/webhook-source-guard';

/** POST /hooks/meta/whatsapp: signed batch → metaEvents queue → 200 `{"received":true}`. */
export const receiveMetaEvents = httpOperation(
  'meta-signature',
  async (request, dependencies: { metaApp: MetaAppSecretSource; metaEvents: MetaEventQueue; webhookSources: WebhookSourceGuard }) => {
    await acceptMetaEvents(dependencies, {
      source: request.sourceIp,
      rawBody: request.rawBody ?? Buffer.alloc(0),
      signature: request.headers['x-hub-signature-256'],
      receivedAt: request.receivedAt,
    });
    return { statusCode: 200, body: { received: true } };
  },
);
