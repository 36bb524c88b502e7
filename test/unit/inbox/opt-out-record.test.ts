/**
 * The suppression list's rules (shared/inbox/opt-out-record.ts) and its use cases over the
 * in-memory store: the latest keyword by Meta's time wins in any order of application, a START
 * undoes only a keyword opt-out, sources are recorded, and a Mexican or Brazilian mobile's two
 * forms are one entry.
 */
import fc from 'fast-check';
import { isOptedOut, withKeywordApplied, withOptOutAdded, withOptOutRemoved, type OptOutRecord, type OptOutSource } from '../../../shared/inbox/opt-out-record';
import {
  addOptOut,
  applyOptOutKeyword,
  defaultOptInKeywords,
  defaultOptOutKeywords,
  optOutKeywordsOf,
  removeOptOut,
  type OptOutPorts,
} from '../../../shared/inbox/opt-outs';
import { OptOutNotFoundError } from '../../../shared/inbox/errors';
import { fixedClock } from '../../../shared/ports/clock';
import { runOptOutAdminCommand } from '../../../shared/inbox/opt-out-admin-commands';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';
import { createInboxTestKit } from './inbox-test-kit';

const number = '447700900123';
const NOW = '2026-03-02T09:00:00.000Z';
const at = (second: number) => new Date(Date.parse('2026-03-02T08:00:00.000Z') + second * 1000).toISOString();
const keyword = (kind: 'stop' | 'start', second: number) => (current: OptOutRecord | undefined) =>
  withKeywordApplied(current, { kind, phoneNumber: number, at: at(second), now: NOW });
const added = (source: OptOutSource) => (current: OptOutRecord | undefined) => withOptOutAdded(current, { phoneNumber: number, source, now: NOW });
const fold = (steps: ReadonlyArray<(current: OptOutRecord | undefined) => OptOutRecord | undefined>) =>
  steps.reduce<OptOutRecord | undefined>((record, step) => step(record), undefined);

describe('the opt-out record', () => {
  it('STOPs and STARTs applied in any order (redeliveries included) end as the latest by Meta’s time says', () => {
    const events = fc.uniqueArray(fc.record({ second: fc.integer({ min: 0, max: 10_000 }), kind: fc.constantFrom<'stop' | 'start'>('stop', 'start') }), {
      selector: (event) => event.second,
      minLength: 1,
      maxLength: 8,
    });
    fc.assert(
      fc.property(
        events.chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray([...list, ...list], { minLength: list.length * 2 }))),
        ([list, applied]) => {
          const latest = list.reduce((a, b) => (b.second > a.second ? b : a));
          const final = fold(applied.map((event) => keyword(event.kind, event.second)));
          expect(isOptedOut(final)).toBe(latest.kind === 'stop');
          expect(final?.keywordAt).toBe(at(latest.second));
        },
      ),
    );
  });

  it('an opt-out the API, an operator or Meta (131050) added survives any START; a keyword one does not', () => {
    for (const source of ['api', 'operator', 'webhook-131050'] as const) {
      const record = fold([added(source), keyword('start', 5)]);
      expect(record).toEqual({ state: 'opted-out', phoneNumber: number, source, createdAt: NOW, keywordAt: at(5) });
    }
    expect(isOptedOut(fold([keyword('stop', 1), keyword('start', 5)]))).toBe(false);
    // The API adding a number a STOP put on the list makes it the API's: a later START leaves it.
    expect(fold([keyword('stop', 1), added('api'), keyword('start', 5)])).toMatchObject({ state: 'opted-out', source: 'api' });
    // A keyword repeat keeps the API's entry and source.
    expect(fold([added('api'), keyword('stop', 1)])).toMatchObject({ state: 'opted-out', source: 'api', keywordAt: at(1) });
  });

  it('a removal keeps the time of the last keyword: a redelivered older STOP stays ignored, a newer one applies', () => {
    const removed = fold([keyword('stop', 3), withOptOutRemoved]);
    expect(removed).toEqual({ state: 'opted-in', phoneNumber: number, keywordAt: at(3) });
    expect(keyword('stop', 3)(removed)).toBe(removed);
    expect(keyword('stop', 2)(removed)).toBe(removed);
    expect(isOptedOut(keyword('stop', 4)(removed))).toBe(true);
    // Nothing to remove, nothing changed.
    expect(withOptOutRemoved(undefined)).toBeUndefined();
    expect(withOptOutRemoved(removed)).toBe(removed);
  });
});

describe('opt-out use cases on the store', () => {
  function setup() {
    const optOuts = new InMemoryOptOutRepository();
    const ports: OptOutPorts = { optOuts, clock: fixedClock(NOW) };
    const keywords = optOutKeywordsOf(defaultOptOutKeywords, defaultOptInKeywords);
    const listed = async () => (await optOuts.listOptOuts('org_a', { offset: 0, limit: 100 })).items;
    return { optOuts, ports, keywords, listed };
  }

  it('Mexico: an opt-out under 52 1… and a lookup or removal under 52… are one entry', async () => {
    const { optOuts, ports, listed } = setup();
    await addOptOut(ports, { organizationId: 'org_a', phoneNumber: '5215512345678', source: 'api' });
    expect(await addOptOut(ports, { organizationId: 'org_a', phoneNumber: '525512345678', source: 'api' })).toMatchObject({ created: false });
    expect(await optOuts.findSuppressed('org_a', ['525512345678', '5215512345678', '525512345679'])).toEqual(new Set(['525512345678', '5215512345678']));
    expect(await listed()).toEqual([{ phoneNumber: '5215512345678', source: 'api', createdAt: NOW }]);
    await removeOptOut(ports, 'org_a', '525512345678');
    await expect(removeOptOut(ports, 'org_a', '5215512345678')).rejects.toBeInstanceOf(OptOutNotFoundError);
  });

  it('Brazil: a STOP under the wa_id without the ninth digit suppresses the dialled number; START under the dialled one undoes it', async () => {
    const { optOuts, ports, keywords } = setup();
    const apply = (phoneNumber: string, text: string, second: number) =>
      applyOptOutKeyword(ports, keywords, { organizationId: 'org_a', phoneNumber, text, sentAt: new Date(at(second)) });
    await apply('558188887777', 'PARAR', 1);
    expect(await optOuts.findSuppressed('org_a', ['5581988887777'])).toEqual(new Set(['5581988887777']));
    await apply('5581988887777', 'INICIAR', 2);
    expect((await optOuts.findSuppressed('org_a', ['5581988887777', '558188887777'])).size).toBe(0);
  });

  it('records the source of each way onto the list', async () => {
    const { ports, keywords, listed } = setup();
    await addOptOut(ports, { organizationId: 'org_a', phoneNumber: '447700900001', source: 'api' });
    await addOptOut(ports, { organizationId: 'org_a', phoneNumber: '447700900002', source: 'operator' });
    await addOptOut(ports, { organizationId: 'org_a', phoneNumber: '447700900003', source: 'webhook-131050' });
    await applyOptOutKeyword(ports, keywords, { organizationId: 'org_a', phoneNumber: '447700900004', text: 'stop', sentAt: new Date(at(1)) });
    expect((await listed()).map(({ phoneNumber, source }) => [phoneNumber, source])).toEqual([
      ['447700900001', 'api'],
      ['447700900002', 'operator'],
      ['447700900003', 'webhook-131050'],
      ['447700900004', 'keyword'],
    ]);
  });
});

describe('the operators’ opt-out commands', () => {
  it('add-opt-out records source operator (a START leaves it); remove-opt-out removes it; bad flags are refused by name', async () => {
    const kit = createInboxTestKit(NOW);
    const keywords = optOutKeywordsOf(defaultOptOutKeywords, defaultOptInKeywords);
    const added = await runOptOutAdminCommand(kit.services, 'add-opt-out', { org: 'org_a', 'phone-number': '447700900555' });
    expect(added).toEqual({ created: true, optOut: { phoneNumber: '447700900555', source: 'operator', createdAt: NOW } });
    await applyOptOutKeyword({ optOuts: kit.optOuts, clock: kit.clock }, keywords, {
      organizationId: 'org_a',
      phoneNumber: '447700900555',
      text: 'START',
      sentAt: new Date(NOW),
    });
    expect(kit.optOuts.onList('org_a')).toEqual(['447700900555']);
    expect(await runOptOutAdminCommand(kit.services, 'remove-opt-out', { org: 'org_a', 'phone-number': '447700900555' })).toEqual({
      phoneNumber: '447700900555',
      removed: true,
    });
    expect(kit.optOuts.onList('org_a')).toEqual([]);

    await expect(runOptOutAdminCommand(kit.services, 'add-opt-out', { org: 'org_a', 'phone-number': '+44 7700' })).rejects.toThrow(/phoneNumber/);
    await expect(runOptOutAdminCommand(kit.services, 'add-opt-out', { org: 'org_a' })).rejects.toThrow('--phone-number is required');
    await expect(runOptOutAdminCommand(kit.services, 'add-opt-out', { org: 'org_a', 'phone-number': '447700900555', source: 'api' })).rejects.toThrow(
      'Unknown flag(s) for add-opt-out: --source',
    );
  });
});
