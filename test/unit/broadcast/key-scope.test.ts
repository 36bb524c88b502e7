/**
 * Scope rules of broadcast keys (shared/broadcast/key-scope.ts), through the use cases that apply
 * them: a key minted by generate-key (`earlier-sender`) reaches only the earlier sends and the
 * status of its own jobs; an operator-bound key (`sender`) only its number's senders, templates and jobs.
 */
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import { JobNotFoundError, JobOfAnotherOrganizationError, OperationOutsideKeyScopeError, SenderNotOwnedError } from '../../../shared/broadcast/errors';
import type { FreeformMessageRequest } from '../../../shared/broadcast/freeform-message.schema';
import { getJobStatus } from '../../../shared/broadcast/get-job-status';
import { isJobInScope, isOperationInScope, type BroadcastOperation, type ScopedCaller } from '../../../shared/broadcast/key-scope';
import { listApprovedTemplates } from '../../../shared/broadcast/list-approved-templates';
import { listSenders } from '../../../shared/broadcast/list-senders';
import { sendFreeformMessage } from '../../../shared/broadcast/send-freeform-message';
import { sendTemplateBroadcast } from '../../../shared/broadcast/send-template-broadcast';
import { TemplateCatalog } from '../../../shared/broadcast/template-catalog';
import { fixedClock } from '../../../shared/ports/clock';
import { randomIdGenerator } from '../../../shared/ports/id-generator';
import {
  InMemoryUploadedMedia,
  InMemoryBroadcastRepository,
  InMemoryIdempotencyGuard,
  InMemorySenderDirectory,
  ORG,
  OTHER_ORG,
  RecordingOutboundQueue,
  ScriptedCloudApi,
  SECOND_SENDER,
  SENDER,
  broadcastRequest,
  template,
  RecordedServiceWindow,
  unlimitedMessaging,
} from '../../support/broadcast-fakes';
import { InboxSuppressionList } from '../../../shared/module-bridges/inbox-opt-outs';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';

const freeformText: FreeformMessageRequest = { fromPhoneNumber: SENDER.phoneNumber, toPhoneNumber: '447700900001', type: 'text', text: 'Hi' };
const minted: ScopedCaller = { organizationId: ORG, credentialId: 'cred_minted', scope: { kind: 'earlier-sender', phoneNumber: SENDER.phoneNumber } };
const bound: ScopedCaller = { organizationId: ORG, credentialId: 'cred_bound', scope: { kind: 'sender', phoneNumber: SENDER.phoneNumber } };
const unbound: ScopedCaller = { organizationId: ORG, credentialId: 'cred_org', scope: { kind: 'organization' } };

function setup() {
  const clock = fixedClock('2026-03-01T09:00:00.000Z');
  const upstream = new ScriptedCloudApi(clock);
  upstream.templates.set(SENDER.wabaId, [template()]);
  const broadcasts = new InMemoryBroadcastRepository();
  const queue = new RecordingOutboundQueue();
  const senders = new InMemorySenderDirectory();
  const templates = new TemplateCatalog(upstream, clock);
  return {
    clock,
    broadcasts,
    queue,
    senders,
    templates,
    idempotency: new InMemoryIdempotencyGuard(),
    ids: randomIdGenerator,
    serviceWindow: new RecordedServiceWindow(),
    optOuts: new InboxSuppressionList(new InMemoryOptOutRepository()),
    media: new InMemoryUploadedMedia(),
    ...unlimitedMessaging(),
  };
}

const job = (jobId: string, overrides: Partial<Extract<BroadcastJob, { kind: 'template' }>> = {}): BroadcastJob => ({
  kind: 'template',
  jobId,
  organizationId: ORG,
  broadcastName: 'b',
  exposed: true,
  wabaId: SENDER.wabaId,
  phoneNumberId: SENDER.phoneNumberId,
  fromPhoneNumber: SENDER.phoneNumber,
  template: { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' },
  totalRecipients: 1001,
  totalChunks: 2,
  chunkSize: 1000,
  createdAt: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

describe('which operations each scope reaches', () => {
  const operations: BroadcastOperation[] = [
    'list-phone-numbers',
    'list-templates',
    'send-template-broadcast',
    'send-freeform',
    'send-earlier',
    'read-job-status',
  ];
  it.each(operations)('%s', (operation) => {
    expect(isOperationInScope(undefined, operation)).toBe(true);
    expect(isOperationInScope({ kind: 'organization' }, operation)).toBe(true);
    expect(isOperationInScope({ kind: 'sender', phoneNumber: '1' }, operation)).toBe(true);
    expect(isOperationInScope({ kind: 'earlier-sender', phoneNumber: '1' }, operation)).toBe(['send-earlier', 'read-job-status'].includes(operation));
  });

  it('jobs: the organization sees all of its jobs, a bound key those of its number, a minted key only those it created', () => {
    const own = { fromPhoneNumber: SENDER.phoneNumber, createdByCredentialId: 'cred_minted' };
    const sameSenderOtherKey = { fromPhoneNumber: SENDER.phoneNumber, createdByCredentialId: 'cred_other' };
    const otherSender = { fromPhoneNumber: SECOND_SENDER.phoneNumber, createdByCredentialId: 'cred_minted' };
    const recordedBeforeCredentials = { fromPhoneNumber: SENDER.phoneNumber };
    expect([own, sameSenderOtherKey, otherSender, recordedBeforeCredentials].map((candidate) => isJobInScope(unbound, candidate))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([own, sameSenderOtherKey, otherSender, recordedBeforeCredentials].map((candidate) => isJobInScope(bound, candidate))).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect([own, sameSenderOtherKey, otherSender, recordedBeforeCredentials].map((candidate) => isJobInScope(minted, candidate))).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(isJobInScope({ ...minted, credentialId: undefined }, recordedBeforeCredentials)).toBe(false);
  });
});

describe('the use cases apply the scope', () => {
  it('a minted key may not list phone numbers; a bound key lists only its number', async () => {
    const { senders } = setup();
    await expect(listSenders(senders, minted)).rejects.toBeInstanceOf(OperationOutsideKeyScopeError);
    await expect(listSenders(senders, minted)).rejects.toThrow('may call only send-single, send-bulk and the status of its own jobs, not phone-numbers');
    expect((await listSenders(senders, bound)).map((sender) => sender.phoneNumber)).toEqual([SENDER.phoneNumber]);
    expect((await listSenders(senders, unbound)).map((sender) => sender.phoneNumber)).toEqual([SENDER.phoneNumber, SECOND_SENDER.phoneNumber]);
  });

  it('a minted key may not list templates, of its own number or another; a bound key only of its number', async () => {
    const { senders, templates } = setup();
    for (const phoneNumber of [SENDER.phoneNumber, SECOND_SENDER.phoneNumber]) {
      await expect(listApprovedTemplates({ senders, templates }, minted, phoneNumber)).rejects.toBeInstanceOf(OperationOutsideKeyScopeError);
    }
    await expect(listApprovedTemplates({ senders, templates }, bound, SECOND_SENDER.phoneNumber)).rejects.toBeInstanceOf(SenderNotOwnedError);
    expect(await listApprovedTemplates({ senders, templates }, bound, SENDER.phoneNumber)).toHaveLength(1);
    expect(senders.resolveCalls).toBe(1);
  });

  it('a minted key may not send a template broadcast or a free-form message, even from its own number; nothing is recorded', async () => {
    const kit = setup();
    const broadcast = sendTemplateBroadcast(kit, minted, broadcastRequest(2), { idempotencyKey: 'k', inProgressTimeoutMs: 1_000 });
    await expect(broadcast).rejects.toBeInstanceOf(OperationOutsideKeyScopeError);
    const freeform = sendFreeformMessage(kit, minted, freeformText);
    await expect(freeform).rejects.toBeInstanceOf(OperationOutsideKeyScopeError);
    expect(kit.broadcasts.jobs.size).toBe(0);
    expect(kit.queue.batches).toHaveLength(0);
    expect(kit.idempotency.records.size).toBe(0);
  });

  it('records the accepting credential on the job', async () => {
    const kit = setup();
    await sendTemplateBroadcast(kit, bound, broadcastRequest(2), { inProgressTimeoutMs: 1_000 });
    expect([...kit.broadcasts.jobs.values()].map((recorded) => recorded.createdByCredentialId)).toEqual(['cred_bound']);
  });

  it('status: another organization’s job stays 401; a job out of the key’s scope in its own organization is “not found”', async () => {
    const { broadcasts } = setup();
    await broadcasts.createJob(job('pub_mine', { createdByCredentialId: 'cred_minted' }), [1000, 1]);
    await broadcasts.createJob(job('pub_same_sender', { createdByCredentialId: 'cred_org' }), [1000, 1]);
    await broadcasts.createJob(job('pub_other_sender', { fromPhoneNumber: SECOND_SENDER.phoneNumber, createdByCredentialId: 'cred_org' }), [1000, 1]);
    await broadcasts.createJob(job('pub_foreign', { organizationId: OTHER_ORG }), [1000, 1]);

    await expect(getJobStatus(broadcasts, minted, 'pub_mine')).resolves.toMatchObject({ jobId: 'pub_mine' });
    for (const jobId of ['pub_same_sender', 'pub_other_sender']) {
      await expect(getJobStatus(broadcasts, minted, jobId)).rejects.toBeInstanceOf(JobNotFoundError);
    }
    await expect(getJobStatus(broadcasts, bound, 'pub_same_sender')).resolves.toMatchObject({ jobId: 'pub_same_sender' });
    await expect(getJobStatus(broadcasts, bound, 'pub_other_sender')).rejects.toThrow('Job pub_other_sender does not exist');
    await expect(getJobStatus(broadcasts, unbound, 'pub_other_sender')).resolves.toMatchObject({ jobId: 'pub_other_sender' });
    for (const caller of [minted, bound, unbound]) {
      await expect(getJobStatus(broadcasts, caller, 'pub_foreign')).rejects.toBeInstanceOf(JobOfAnotherOrganizationError);
    }
  });
});
