/**
 * The chunk worker keeps the organization's frequency cap (docs/CAMPAIGNS.md "Frequency caps"):
 * reserved per recipient after the claim, before the send; over the cap FAILED FREQUENCY_CAPPED
 * (never sent) or, with deferCapped, released and held until the cap allows; a definite failure
 * gives the place back; one person across phone and BSUID; categories the policy does not count
 * are not capped.
 */
import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import type { FrequencyCapPorts } from '../../../shared/broadcast/chunk-worker/frequency-caps';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import type { ContactPolicy } from '../../../shared/send-rules/ports';
import { chunkMessage, jobOf, rejected, ORG } from '../../support/broadcast-fakes';
import { InMemoryContactBook } from '../../support/in-memory-contact-book';
import { InMemoryContactPolicyStore } from '../../support/in-memory-contact-policy-store';
import { InMemoryFrequencyCapStore } from '../../support/in-memory-frequency-cap-store';
import { START, setup, statusCounts } from './chunk-worker-kit';

const DAY = 86_400_000;
const weekly: ContactPolicy = { marketingPerPerson: 1, perDays: 7, updatedAt: START };

function capKit(policy: ContactPolicy | null = weekly) {
  const kit = setup({ settings: { waitingRecheckSeconds: 900 } });
  const policies = new InMemoryContactPolicyStore();
  const caps = new InMemoryFrequencyCapStore();
  const contactBook = new InMemoryContactBook();
  if (policy) void policies.setPolicy(ORG, policy);
  const ports: FrequencyCapPorts = {
    policyOf: (org) => policies.policyOf(org),
    pairsOf: (org, keys) => contactBook.pairsOf(org, keys),
    reserve: (...args) => caps.reserve(...args),
    release: (...args) => caps.release(...args),
  };
  kit.dependencies.frequencyCaps = ports;
  const createJob = (message: TemplateChunkMessage, category = 'MARKETING') => {
    const job = jobOf(message, [message.recipients.length], START);
    if (job.kind !== 'template') throw new TypeError('a template job');
    return kit.broadcasts.createJob({ ...job, template: { ...job.template, category } }, [message.recipients.length]);
  };
  /** A send of an earlier job counted for the person a day before the kit's start. */
  const countedBefore = (personKey: string) =>
    caps.reserve(ORG, personKey, { sendId: 'pub_earlier#0', at: new Date(Date.parse(START) - DAY) }, { count: 1, perDays: 7 });
  return { kit, policies, caps, contactBook, createJob, countedBefore };
}

describe('the chunk worker and the frequency cap', () => {
  it('fails a person over the cap FREQUENCY_CAPPED (no attempt, never sent) and counts the others', async () => {
    const { kit, caps, createJob, countedBefore } = capKit();
    const message = chunkMessage(3);
    await createJob(message);
    const capped = message.recipients[1]!;
    await countedBefore(capped.to);

    const report = await kit.run(message);

    expect(report).toMatchObject({ sent: 2, failed: 1, chunkDone: true });
    expect(kit.upstream.sendsTo(capped.to)).toHaveLength(0);
    expect(kit.broadcasts.entry(message.jobId, 0, capped.index)).toMatchObject({ status: 'FAILED', failureReasonCode: 'FREQUENCY_CAPPED', attempts: 0 });
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ failuresByReason: { FREQUENCY_CAPPED: 1 } });
    expect(caps.countedFor(ORG, message.recipients[0]!.to)).toEqual([`${message.jobId}#0`]);
    expect(caps.countedFor(ORG, capped.to)).toEqual(['pub_earlier#0']);
  });

  it('does not cap a UTILITY template under a MARKETING-only policy, and caps it when the policy counts UTILITY', async () => {
    const utility = capKit();
    const message = chunkMessage(2);
    await utility.createJob(message, 'UTILITY');
    await utility.countedBefore(message.recipients[0]!.to);
    expect(await utility.kit.run(message)).toMatchObject({ sent: 2, failed: 0 });

    const counted = capKit({ ...weekly, categories: ['MARKETING', 'UTILITY'] });
    await counted.createJob(message, 'UTILITY');
    await counted.countedBefore(message.recipients[0]!.to);
    expect(await counted.kit.run(message)).toMatchObject({ sent: 1, failed: 1 });
  });

  it('without a policy nothing is reserved', async () => {
    const { kit, caps, createJob } = capKit(null);
    const message = chunkMessage(2);
    await createJob(message);
    expect(await kit.run(message)).toMatchObject({ sent: 2 });
    expect(caps.countedFor(ORG, message.recipients[0]!.to)).toEqual([]);
  });

  it('with deferCapped releases the claim and holds the person until the cap allows (0B code, re-queued, unclaimed)', async () => {
    const { kit, createJob, countedBefore } = capKit();
    const message = chunkMessage(2, { sendRules: { deferCapped: true } });
    await createJob(message);
    const deferred = message.recipients[0]!;
    await countedBefore(deferred.to);

    const report = await kit.run(message);

    expect(report).toMatchObject({ sent: 1, failed: 0, waiting: 1, chunkDone: false });
    expect(kit.upstream.sendsTo(deferred.to)).toHaveLength(0);
    expect(kit.broadcasts.entry(message.jobId, 0, deferred.index)).toBeUndefined();
    const allowedAt = new Date(Date.parse(START) + 6 * DAY);
    const tally = new Map((await kit.broadcasts.getJobProgress(message.jobId)).tally);
    expect(tally.get(deferred.index)).toBe(tallyCodes.waitingForCap(allowedAt));
    expect(kit.queue.batches).toHaveLength(1);
    expect(kit.queue.batches[0]!.delaySeconds).toBe(900);
    expect(kit.queue.batches[0]!.messages[0]!.recipients.map(({ index }) => index)).toEqual([deferred.index]);
  });

  it('gives the place back when the send definitely failed, keeps it for a sent one', async () => {
    const { kit, caps, createJob } = capKit();
    const message = chunkMessage(2);
    await createJob(message);
    const refused = message.recipients[0]!;
    kit.upstream.script(refused.to, rejected(131026, 400));

    const report = await kit.run(message);

    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ FAILED: 1, SENT: 1 });
    expect(report).toMatchObject({ sent: 1, failed: 1 });
    expect(caps.countedFor(ORG, refused.to)).toEqual([]);
    expect(caps.countedFor(ORG, message.recipients[1]!.to)).toEqual([`${message.jobId}#1`]);
  });

  it('counts one person across phone and BSUID once the contact book knows the pair', async () => {
    const { kit, contactBook, createJob, countedBefore } = capKit();
    await contactBook.recordPair(ORG, { phoneNumber: '5215511112222', userId: 'MX.8812', at: START });
    const message = chunkMessage(2, {
      recipients: [
        { index: 0, to: 'MX.8812', parameters: ['Ana'] },
        { index: 1, to: 'US.99', parameters: ['Bo'] },
      ],
    });
    await createJob(message);
    // The number in its other Mexican form: one person (the opt-out key).
    await countedBefore('525511112222');

    const report = await kit.run(message);

    expect(report).toMatchObject({ sent: 1, failed: 1 });
    expect(kit.broadcasts.entry(message.jobId, 0, 0)).toMatchObject({ failureReasonCode: 'FREQUENCY_CAPPED' });
    expect(kit.upstream.sendsTo('US.99')).toHaveLength(1);
  });

  it('a cap store that stays down fails the message with the claim given back: retried, never an unknown send', async () => {
    const { kit, createJob } = capKit();
    const message = chunkMessage(1);
    await createJob(message);
    kit.dependencies.frequencyCaps!.reserve = () => Promise.reject(new Error('store down'));

    await expect(kit.run(message)).rejects.toThrow('store down');

    expect(kit.upstream.sends).toHaveLength(0);
    expect(kit.broadcasts.entry(message.jobId, 0, 0)).toBeUndefined();
  });
});
