/**
 * The two sinks the delivery-events processor hands non-status events to (shared/delivery/ports.ts):
 * - `inboundMessageSinkSection`: inbound messages → v1 contacts, conversations and the 24-hour window
 *   (inbox readWrite, tenancy read);
 * - `templateStatusSinkSection`: template status events → template states the catalog overlays
 *   (messaging readWrite);
 * - `optOutRecorderSection`: failures 131050 and users' marketing preferences → the opt-out list (inbox readWrite);
 * - `identityPairSinkSection`: Meta's BSUID ↔ phone pairs → the contact book (inbox readWrite);
 * - `accountRefusalSinkSection`: failures 131042 → the account's jobs held (messaging readWrite).
 */
import { chunkProgressAdapter, jobControlAdapter, jobStoreAdapter } from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import type {
  AccountRefusalSink,
  IdentityPairSink,
  InboundMessageSink,
  MarketingPreferenceSink,
  OptOutRecorder,
  TemplateStatusSink,
} from '../../shared/delivery/ports';
import type { CustomerEvent } from '../../shared/customer-events/ports';
import { BroadcastAccountRefusals } from '../../shared/module-bridges/broadcast-account-refusals';
import { InboxIdentityPairs } from '../../shared/module-bridges/inbox-identity-pairs';
import { InboxOptOutRecorder } from '../../shared/module-bridges/inbox-opt-outs';
import type { RecordInboundPorts } from '../../shared/inbox/record-inbound-message';
import { BroadcastTemplateStatusSink } from '../../shared/module-bridges/broadcast-template-status-sink';
import { InboxInboundMessageSink } from '../../shared/module-bridges/inbox-inbound-sink';
import { memoize, sleep, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';
import { inboxRepositorySection, inboxSenderNumbers } from './inbox.section';
import { broadcastStoresSection, templateStatesSection } from './messaging.section';
import type { TenancyReader } from './tenancy.section';

export const inboundMessageSinkSection = (context: CompositionContext, dynamoDb: DynamoDbClients, tenancy: () => Pick<TenancyReader, 'repository'>) => {
  const repository = inboxRepositorySection(context, dynamoDb);
  return memoize((): InboundMessageSink => {
    const numbers = inboxSenderNumbers(tenancy);
    const ports: RecordInboundPorts = {
      get inbox() {
        return repository();
      },
      get contactBook() {
        return repository();
      },
      senders: numbers,
      clock: context.clock,
      ids: context.ids,
      sleep,
    };
    return new InboxInboundMessageSink(ports, numbers, {
      ports: {
        get optOuts() {
          return repository();
        },
        get contactBook() {
          return repository();
        },
        clock: context.clock,
      },
      keywords: context.config.optOutKeywords,
    });
  });
};

/** Failure 131050 and `user_preferences` → the organization's opt-out list (inbox readWrite). */
export const optOutRecorderSection = (context: CompositionContext, dynamoDb: DynamoDbClients) => {
  const repository = inboxRepositorySection(context, dynamoDb);
  return memoize(
    (): OptOutRecorder & MarketingPreferenceSink => new InboxOptOutRecorder({ optOuts: repository(), contactBook: repository(), clock: context.clock }),
  );
};

/** Meta's BSUID ↔ phone pairs of inbound messages and `sent` statuses → the contact book, opt-outs aligned (inbox readWrite). */
export const identityPairSinkSection = (context: CompositionContext, dynamoDb: DynamoDbClients) => {
  const repository = inboxRepositorySection(context, dynamoDb);
  return memoize((): IdentityPairSink => new InboxIdentityPairs({ optOuts: repository(), contactBook: repository(), clock: context.clock }));
};

export const templateStatusSinkSection = (context: CompositionContext, dynamoDb: DynamoDbClients) => {
  const states = templateStatesSection(context, dynamoDb);
  return memoize((): TemplateStatusSink => new BroadcastTemplateStatusSink(states()));
};

/** A `failed` status refusing the business account (131042) → the job and the account's running jobs held, job.paused published (messaging readWrite). */
export const accountRefusalSinkSection = (
  context: CompositionContext,
  dynamoDb: DynamoDbClients,
  events: () => { publish(organizationId: string, event: CustomerEvent): Promise<void> },
) => {
  const broadcasts = broadcastStoresSection(context, dynamoDb, [jobStoreAdapter, jobControlAdapter, chunkProgressAdapter]);
  return memoize(
    (): AccountRefusalSink =>
      new BroadcastAccountRefusals({
        get broadcasts() {
          return broadcasts();
        },
        clock: context.clock,
        get events() {
          return events();
        },
      }),
  );
};
