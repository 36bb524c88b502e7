/**
 * The platform variants the simulation compares: today's (the chunk worker's mapping at its
 * deployed concurrency, single messages in its queue, no message groups) and the shape issue 40
 * items 1-3 aim at, as parameters only: a larger chunk-worker ceiling, a lane of its own for
 * single messages, fair queues, a larger delivery-events ceiling. The real code of those items
 * (the lane's routing at accept, the group ids) comes with them; here the queue adapter routes
 * by the platform's `laneOfJob` (shared/broadcast/outbound-lanes.ts).
 */
import type { ScaleSettings } from './scale-settings';
import { eventSourceCeilings } from '../../../runtime-contract/capacity-model';

export type ScaleVariant = 'today' | 'lanes';

/**
 * The settings of `variant` on top of `base`. `lanes`: the capacity model's ceilings for the
 * chunk worker, the single lane (both with provisioned pollers) and delivery-events
 * (runtime-contract/capacity-model.ts), fair queues.
 *
 * @example
 * const settings = withVariant(fullScaleSettings(40), 'lanes');
 */
export function withVariant(base: ScaleSettings, variant: ScaleVariant): ScaleSettings {
  if (variant === 'today') return base;
  const { platform } = base;
  return {
    ...base,
    platform: {
      ...platform,
      // Provisioned pollers (the mapping's minimum): no minutes-long scale-up from 5 after an idle spell.
      chunkWorker: { ...platform.chunkWorker, maxConcurrency: eventSourceCeilings.chunkWorker, initialConcurrency: eventSourceCeilings.chunkWorker },
      // The single-sender function: the chunk worker's consumer, 10 records a batch (issue 40 item 2).
      singleLane: {
        ...platform.chunkWorker,
        name: 'single-lane',
        maxConcurrency: eventSourceCeilings.singleSender,
        initialConcurrency: eventSourceCeilings.singleSender,
        batchSize: 10,
      },
      deliveryEvents: { ...platform.deliveryEvents, maxConcurrency: eventSourceCeilings.deliveryEvents },
      customerEvents: { ...platform.customerEvents, maxConcurrency: eventSourceCeilings.customerEventsDispatcher },
      fairQueues: true,
    },
  };
}
