/**
 * Every message an SQS adapter sends carries its tenant as `MessageGroupId` (SQS fair queues,
 * docs/SCALE.md "Fair queues"): the organization for chunk messages, campaign expansions and
 * customer-event deliveries, the business account for Meta's webhook POSTs. Re-queued messages keep
 * their group, and dead-letter replays keep the group they had.
 */
import { SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { SqsCustomerEventQueue } from '../../../shared/adapters/sqs/sqs-customer-event-queue';
import { SqsExpansionQueue } from '../../../shared/adapters/sqs/sqs-expansion-queue';
import { SqsDeadLetterReplay, SqsMetaEventQueue } from '../../../shared/adapters/sqs/sqs-meta-events';
import { SqsOutboundQueue } from '../../../shared/adapters/sqs/sqs-outbound-queue';
import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import type { CustomerEventDelivery } from '../../../shared/customer-events/delivery-message';
import { encodeMetaEventMessage } from '../../../shared/meta-app/meta-event-message';
import { UNATTRIBUTED_META_EVENTS } from '../../../shared/meta-app/meta-event-tenant';

type Sent = { name: string; input: Record<string, unknown> };

/** A stand-in SQS client: records each command; a receive answers `received` once. */
function recordingSqs(received: unknown[] = []): { sqs: SQSClient; sent: Sent[] } {
  const sent: Sent[] = [];
  let receives = 0;
  const send = async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    sent.push({ name: command.constructor.name, input: command.input });
    if (command.constructor.name === 'ReceiveMessageCommand') return { Messages: receives++ === 0 ? received : [] };
    if (command.constructor.name === 'SendMessageBatchCommand')
      return { Successful: (command.input.Entries as Array<{ Id: string }>).map(({ Id }) => ({ Id })), Failed: [] };
    return {};
  };
  return { sqs: { send } as unknown as SQSClient, sent };
}

const groupsOf = (sent: Sent[]): Array<string | undefined> =>
  sent.flatMap(({ name, input }) =>
    name === SendMessageBatchCommand.name
      ? (input.Entries as Array<{ MessageGroupId?: string }>).map((entry) => entry.MessageGroupId)
      : name === SendMessageCommand.name
        ? [input.MessageGroupId as string | undefined]
        : [],
  );

const chunk = (organizationId: string, chunkIndex: number): TemplateChunkMessage => ({
  kind: 'template-chunk',
  version: 1,
  jobId: `job_${organizationId}`,
  organizationId,
  chunkIndex,
  wabaId: '102290129340398',
  phoneNumberId: '106540352242922',
  template: { name: 'order_update', language: 'en_US' },
  recipients: [{ index: chunkIndex, to: '15551230000', parameters: [] }],
});

const delivery = (organizationId: string, attempts = 0): CustomerEventDelivery => ({
  version: 1,
  organizationId,
  endpointId: 'wh_1',
  event: { id: `evt_${organizationId}`, type: 'message.status', createdAt: '2026-01-01T00:00:00.000Z', data: {} },
  firstAttemptAt: '2026-01-01T00:00:00.000Z',
  attempts,
});

describe('SQS adapters: every message carries its tenant as MessageGroupId', () => {
  it('outbound queue: each chunk message is grouped by its organization, also in a mixed batch and when re-queued with a delay', async () => {
    const { sqs, sent } = recordingSqs();
    const queue = new SqsOutboundQueue(sqs, { bulk: 'https://sqs/outbound', single: 'https://sqs/single' });
    const messages = Array.from({ length: 13 }, (_, index) => chunk(index % 2 === 0 ? 'org_even' : 'org_odd', index));
    await queue.enqueue(messages);
    await queue.enqueue([chunk('org_even', 99)], { delaySeconds: 30 });

    const entries = sent.flatMap(({ input }) => input.Entries as Array<{ MessageBody: string; MessageGroupId: string }>);
    expect(entries).toHaveLength(14);
    for (const entry of entries) expect(entry.MessageGroupId).toBe((JSON.parse(entry.MessageBody) as { organizationId: string }).organizationId);
    expect(sent.every(({ name }) => name === SendMessageBatchCommand.name)).toBe(true);
  });

  it('outbound queue: phone numbers never become a group (the recipient is not the tenant)', async () => {
    const { sqs, sent } = recordingSqs();
    await new SqsOutboundQueue(sqs, { bulk: 'https://sqs/outbound', single: 'https://sqs/single' }).enqueue([chunk('org_1', 0)]);
    expect(groupsOf(sent)).toEqual(['org_1']);
    expect(JSON.stringify(groupsOf(sent))).not.toMatch(/1555123|10654035|10229012/);
  });

  it('expansion queue: the campaign’s organization, with or without a delay', async () => {
    const { sqs, sent } = recordingSqs();
    const queue = new SqsExpansionQueue(sqs, 'https://sqs/expansion');
    await queue.enqueueExpansion({ version: 1, organizationId: 'org_big', campaignId: 'cmp_1' });
    await queue.enqueueExpansion({ version: 1, organizationId: 'org_big', campaignId: 'cmp_1' }, 120);
    expect(groupsOf(sent)).toEqual(['org_big', 'org_big']);
    expect(sent[1]!.input.DelaySeconds).toBe(120);
  });

  it('customer-event queue: deliveries, their retries and the dead-letter copy carry their organization', async () => {
    const { sqs, sent } = recordingSqs();
    const queue = new SqsCustomerEventQueue(sqs, 'https://sqs/events', 'https://sqs/events-dlq');
    await queue.enqueue([delivery('org_1'), delivery('org_2'), delivery('org_1')]);
    await queue.enqueue([delivery('org_2', 3)], { delaySeconds: 60 });
    await queue.deadLetter(delivery('org_3', 9));
    expect(groupsOf(sent)).toEqual(['org_1', 'org_2', 'org_1', 'org_2', 'org_3']);
  });

  it('meta events queue: the tenant the intake names (its business account), made a valid group id', async () => {
    const { sqs, sent } = recordingSqs();
    const queue = new SqsMetaEventQueue(sqs, 'https://sqs/meta');
    await queue.send('{}', '102290129340398');
    await queue.send('{}', 'not a valid group');
    expect(groupsOf(sent)[0]).toBe('102290129340398');
    expect(groupsOf(sent)[1]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('meta events replay: a dead-lettered message goes back with the group it had, or (from before groups) the one its POST would get now', async () => {
    const post = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '555000111', changes: [] }] });
    const received = [
      { Body: encodeMetaEventMessage(new Date(0), '{}'), ReceiptHandle: 'r1', Attributes: { MessageGroupId: '999888777' } },
      { Body: encodeMetaEventMessage(new Date(0), post), ReceiptHandle: 'r2' },
      { Body: 'not a meta event message', ReceiptHandle: 'r3' },
    ];
    const { sqs, sent } = recordingSqs(received);
    const moved = await new SqsDeadLetterReplay(sqs, 'https://sqs/meta-dlq', 'https://sqs/meta').moveBack(10);
    expect(moved).toBe(3);
    expect(sent[0]!.input.MessageSystemAttributeNames).toEqual(['MessageGroupId']);
    expect(groupsOf(sent)).toEqual(['999888777', '555000111', UNATTRIBUTED_META_EVENTS]);
  });
});
