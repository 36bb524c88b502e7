/**
 * The customer-event publisher (queues deliveries on the customerEvents queue) and the event log
 * (messaging table). Their adapters are built by the customer-events work (issue 12, dispatcher
 * side) on another branch; until that merge this factory is the single place that stands for
 * them, and it refuses to build either port, loudly, rather than pretend to deliver.
 */
import type { CustomerEventLog, CustomerEventPublisher } from '../../shared/customer-events/ports';
import type { CompositionContext, PortFactories } from './composition-context';
import { sqsClient } from './sqs-client';

export interface CustomerEventPorts {
  publisher: CustomerEventPublisher;
  eventLog: CustomerEventLog;
}

export class CustomerEventPortsNotWiredError extends Error {
  override readonly name = 'CustomerEventPortsNotWiredError';
  constructor(port: keyof CustomerEventPorts) {
    super(`customerEventPorts(context).${port} is not wired: the customer-events publisher and event log adapters arrive with the dispatcher branch`);
  }
}

export function customerEventPorts(context: CompositionContext): PortFactories<CustomerEventPorts> {
  // The publisher's client (the customerEvents queue): referenced here so the function bundles
  // exactly the SDK clients its definition grants, before and after the merge.
  const sqs = sqsClient(context);
  return {
    publisher: () => {
      void sqs;
      throw new CustomerEventPortsNotWiredError('publisher');
    },
    eventLog: () => {
      throw new CustomerEventPortsNotWiredError('eventLog');
    },
  };
}
