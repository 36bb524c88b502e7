/**
 * The in-memory dependencies of sendTemplateBroadcast that accept-path unit tests share: the demo
 * sender with one approved template, an empty opt-out list and unlimited messaging. Tests add or
 * replace ports (scheduling, a shared opt-out repository) by spreading over `dependencies`.
 */
import type { SendTemplateBroadcastDependencies } from '../../shared/broadcast/send-template-broadcast';
import { TemplateCatalog } from '../../shared/broadcast/template-catalog';
import { InboxSuppressionList } from '../../shared/module-bridges/inbox-opt-outs';
import type { Clock } from '../../shared/ports/clock';
import { sequentialIdGenerator } from '../../shared/ports/id-generator';
import {
  InMemoryUploadedMedia,
  InMemoryBroadcastRepository,
  InMemoryIdempotencyGuard,
  InMemorySenderDirectory,
  RecordingOutboundQueue,
  SENDER,
  ScriptedCloudApi,
  template,
  unlimitedMessaging,
} from './broadcast-fakes';
import { InMemoryOptOutRepository } from './in-memory-opt-out-repository';

export function templateBroadcastKit(clock: Clock) {
  const upstream = new ScriptedCloudApi(clock);
  upstream.templates.set(SENDER.wabaId, [template()]);
  const broadcasts = new InMemoryBroadcastRepository();
  const queue = new RecordingOutboundQueue();
  const optOuts = new InMemoryOptOutRepository();
  const dependencies: SendTemplateBroadcastDependencies = {
    ids: sequentialIdGenerator(),
    senders: new InMemorySenderDirectory([SENDER]),
    templates: new TemplateCatalog(upstream, clock),
    broadcasts,
    queue,
    idempotency: new InMemoryIdempotencyGuard(),
    optOuts: new InboxSuppressionList(optOuts),
    clock,
    media: new InMemoryUploadedMedia(),
    ...unlimitedMessaging(),
  };
  return { upstream, broadcasts, queue, optOuts, dependencies };
}
