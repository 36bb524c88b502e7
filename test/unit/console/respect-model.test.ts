/**
 * Issue 39 in the console's pure parts (console/model/): the builder's send rules checked by the
 * API's own schemas and worded as its 400s, held recipients, the canary, a halt's measures beside
 * their thresholds, a job's pause and resume, the dry run's window plan, the contact policy.
 */
import { campaignBody } from '../../../console/model/campaign-draft';
import { mayCall, contactPolicyOperations, type Me } from '../../../console/model/roles';
import { routeOf } from '../../../console/model/route';
import { serviceRoutes } from '../../../runtime-contract/route-manifest';
import { sendRulesFormOf, thresholdsOf, type SendRulesInput } from '../../../console/model/send-rules-form';
import {
  canaryWords,
  contactPolicyBodyOf,
  contactPolicyOf,
  sendRulesFactsOf,
  contactPolicyWords,
  haltRowsOf,
  jobControlsOf,
  pauseWords,
  percentOf,
  sendWindowPlanLines,
  waitingFactsOf,
} from '../../../console/model/respect-views';
import { JOB_STATUSES } from '../../../shared/broadcast/broadcast-job';
import { campaignRequestSchema } from '../../../shared/campaigns/campaign-request.schema';
import { WEEKDAYS } from '../../../shared/send-rules/send-rules.schema';
import * as v from 'valibot';

const empty: SendRulesInput = {
  windowFrom: '',
  windowTo: '',
  days: WEEKDAYS,
  zone: 'recipient',
  zoneName: '',
  deferCapped: false,
  canary: false,
  canarySize: 'percent',
  canaryAmount: '',
  observeMinutes: '',
  watchWhileRunning: true,
  optOutPercent: '',
  failurePercent: '',
  blockPercent: '',
  qualityDrop: false,
};

describe("the builder's send rules", () => {
  it('are absent when nothing is filled (a campaign without rules is created exactly as before)', () => {
    expect(sendRulesFormOf(empty)).toEqual({ values: {} });
  });

  it("make a window in the recipient's own time, days only when some are left out, a named zone when chosen", () => {
    expect(sendRulesFormOf({ ...empty, windowFrom: '09:00', windowTo: '20:00' }).values).toEqual({ sendWindow: { from: '09:00', to: '20:00' } });
    const weekdays = WEEKDAYS.filter((day) => day !== 'sat' && day !== 'sun');
    expect(
      sendRulesFormOf({
        ...empty,
        windowFrom: '22:00',
        windowTo: '06:00',
        days: ['fri', 'mon', 'tue', 'wed', 'thu'],
        zone: 'named',
        zoneName: ' Asia/Kolkata ',
      }).values,
    ).toEqual({
      sendWindow: { from: '22:00', to: '06:00', days: weekdays, timeZone: 'Asia/Kolkata' },
    });
  });

  it("say what the API's 400 says, behind the field's label", () => {
    expect(sendRulesFormOf({ ...empty, windowFrom: '9', windowTo: '20:00' }).problem).toBe(
      'Send from: sendWindow.from must be a time "HH:MM" (00:00 to 23:59)',
    );
    expect(sendRulesFormOf({ ...empty, windowFrom: '09:00' }).problem).toBe('Send until: sendWindow.to must be a time "HH:MM" (00:00 to 24:00)');
    expect(sendRulesFormOf({ ...empty, windowFrom: '09:00', windowTo: '09:00' }).problem).toBe('Send window: sendWindow from and to must differ');
    expect(sendRulesFormOf({ ...empty, windowFrom: '09:00', windowTo: '20:00', days: [] }).problem).toBe('Days: sendWindow.days must hold at least 1 day');
    expect(sendRulesFormOf({ ...empty, windowFrom: '09:00', windowTo: '20:00', zone: 'named', zoneName: 'Mars/Olympus' }).problem).toMatch(
      /^Time zone: sendWindow\.timeZone must be "recipient" or an IANA time zone name/,
    );
    expect(sendRulesFormOf({ ...empty, optOutPercent: '150' }).problem).toBe(
      'Opt-out rate above (%): haltIf.optOutRate must be at most 1 (a share, 0.01 = 1 %)',
    );
    expect(sendRulesFormOf({ ...empty, canary: true, observeMinutes: '30' }).problem).toBe('Halt thresholds: canary.haltIf must hold at least one threshold');
    expect(sendRulesFormOf({ ...empty, canary: true, optOutPercent: '1' }).problem).toBe(
      'Watch the canary for (minutes): canary.observeMinutes must be a whole number of minutes',
    );
    expect(sendRulesFormOf({ ...empty, canary: true, canaryAmount: '60', observeMinutes: '30', optOutPercent: '1' }).problem).toBe(
      'Canary size (percent): canary.percent must be at most 50',
    );
    expect(sendRulesFormOf({ ...empty, watchWhileRunning: false, failurePercent: '5' }).problem).toMatch(/^Halt thresholds: choose where they apply/);
  });

  it('turn percents into shares without float noise, and a canary into its slice, watch and thresholds', () => {
    expect(thresholdsOf({ optOutPercent: '0.07', failurePercent: '5', blockPercent: '0.5', qualityDrop: true })).toEqual({
      optOutRate: 0.0007,
      failureRate: 0.05,
      blockRate: 0.005,
      qualityDrop: true,
    });
    const form = {
      ...empty,
      canary: true,
      canarySize: 'count' as const,
      canaryAmount: '500',
      observeMinutes: '30',
      optOutPercent: '1',
      qualityDrop: true,
      deferCapped: true,
    };
    expect(sendRulesFormOf(form).values).toEqual({
      deferCapped: true,
      canary: { count: 500, observeMinutes: 30, haltIf: { optOutRate: 0.01, qualityDrop: true } },
      haltIf: { optOutRate: 0.01, qualityDrop: true },
    });
    // Only the canary's slice is watched; an empty size is the API's default (5 %).
    expect(sendRulesFormOf({ ...form, watchWhileRunning: false, canaryAmount: '' }).values).toEqual({
      deferCapped: true,
      canary: { observeMinutes: 30, haltIf: { optOutRate: 0.01, qualityDrop: true } },
    });
    expect(sendRulesFormOf({ ...empty, failurePercent: '5' }).values).toEqual({ haltIf: { failureRate: 0.05 } });
  });

  it("go into the create body the API's campaign schema accepts", () => {
    const rules = sendRulesFormOf({
      ...empty,
      windowFrom: '09:00',
      windowTo: '20:00',
      deferCapped: true,
      canary: true,
      canaryAmount: '5',
      observeMinutes: '30',
      optOutPercent: '1',
    }).values;
    const body = campaignBody({
      name: 'Respectful',
      fromPhoneNumber: '15550100001',
      audienceId: 'aud_1',
      template: { name: 'spring_offer', language: 'en', category: 'MARKETING' },
      values: {},
      sendRules: rules,
    });
    expect(body).toMatchObject({
      sendWindow: { from: '09:00', to: '20:00' },
      deferCapped: true,
      canary: { percent: 5, observeMinutes: 30, haltIf: { optOutRate: 0.01 } },
      haltIf: { optOutRate: 0.01 },
    });
    const parsed = v.safeParse(campaignRequestSchema, body);
    expect(parsed.issues?.map((issue) => issue.message)).toBeUndefined();
  });
});

describe('a job and a campaign that respect their people', () => {
  it('say who waits for their window or the cap, and until when; nothing when nobody waits', () => {
    const facts = waitingFactsOf({
      waitingForWindow: 1_300,
      nextWindowAt: '2026-12-02T03:30:00.000Z',
      deferredByCap: 20,
      nextCapAt: '2026-12-08T09:00:00.000Z',
    });
    expect(facts.map(([term]) => term)).toEqual(['Waiting for their send window', 'Deferred by the frequency cap']);
    expect(facts[0]![1]).toMatch(/^1,300, next opening /);
    expect(facts[1]![1]).toMatch(/^20, the cap next allows one at /);
    expect(waitingFactsOf({})).toEqual([]);
    expect(waitingFactsOf({ waitingForWindow: 0 })).toEqual([]);
  });

  it('put each measured rate of a halt beside its threshold, in words, only for the thresholds set', () => {
    const halt = {
      measured: { optOutRate: 0.03, failureRate: 0.01, qualityDrop: false },
      thresholds: { optOutRate: 0.01, failureRate: 0.05, qualityDrop: true },
      sent: 400,
    };
    const rows = haltRowsOf(halt);
    expect(rows.map((row) => [row.measure, row.measured, row.threshold, row.over])).toEqual([
      ['Opt-out rate', '3.0 %', '1.0 %', true],
      ['Failure rate', '1.0 %', '5.0 %', false],
      ['Template quality', 'no drop', 'any drop halts', false],
    ]);
    expect(rows[0]!.words).toBe('Opt-out rate 3.0 % of 400 sent opted out (STOP replies, marketing stops, 131050), above the threshold of 1.0 %');
    expect(rows[1]!.words).toMatch(/within the threshold of 5\.0 %$/);
    expect(pauseWords({ pausedBy: 'canary', reason: 'CANARY_HALTED', halt })).toBe(
      'Halted by its thresholds after 400 sent: opt-out rate 3.0 % above 1.0 %. Resume to send the rest, or cancel.',
    );
    // The API's figures (helper "canary"): its `exceeded` decides, its counts are named.
    const figures = {
      stage: 'canary' as const,
      ...halt,
      measured: { optOutRate: 0.03, failureRate: 0.01, blockRate: 0, qualityDrop: true },
      exceeded: ['optOutRate', 'qualityDrop'] as const,
      counts: { optOuts: 12, failures: 4, blocks: 0 },
    };
    const fromApi = haltRowsOf({ ...figures, exceeded: [...figures.exceeded] });
    expect(fromApi.map((row) => row.over)).toEqual([true, false, true]);
    expect(fromApi[0]!.words).toBe('Opt-out rate 3.0 %: 12 of 400 sent opted out (STOP replies, marketing stops, 131050), above the threshold of 1.0 %');
    expect(pauseWords({ pausedBy: 'canary', halt: { ...figures, exceeded: [...figures.exceeded] } })).toBe(
      "Halted by its thresholds after 400 sent: opt-out rate 3.0 % above 1.0 %; the template's quality rating dropped. Resume to send the rest, or cancel.",
    );
    expect(pauseWords({ pausedBy: 'user', reason: 'PAUSED_BY_USER' })).toBe('Paused by a person (PAUSED_BY_USER)');
    expect(percentOf(0.005)).toBe('0.50 %');
  });

  it("say the canary's state, slice, watch and verdict", () => {
    expect(canaryWords({ state: 'observing', slice: 185, observeUntil: '2026-12-02T10:00:00.000Z' })).toMatch(
      /^watching the first slice, a slice of 185 until /,
    );
    const verdict = {
      stage: 'canary' as const,
      measured: { optOutRate: 0.005, failureRate: 0, blockRate: 0, qualityDrop: false },
      thresholds: { optOutRate: 0.01 },
      exceeded: [],
      sent: 185,
      at: '2026-12-02T10:30:00.000Z',
    };
    expect(canaryWords({ state: 'passed', slice: 185, observeUntil: '2026-12-02T10:00:00.000Z', verdict })).toBe(
      'passed: the rest is being sent, a slice of 185; verdict: within every threshold over 185 sent',
    );
    expect(
      canaryWords({ state: 'halted', slice: 185, verdict: { ...verdict, measured: { ...verdict.measured, optOutRate: 0.03 }, exceeded: ['optOutRate'] } }),
    ).toBe('halted: the campaign was paused, a slice of 185; verdict: over its thresholds: opt-out rate 3.0 % above 1.0 %');
    expect(canaryWords({ state: 'something-new', slice: 5 })).toBe('something-new, a slice of 5');
  });

  it("say the campaign's rules as given", () => {
    expect(
      sendRulesFactsOf({
        sendWindow: { from: '09:00', to: '20:00', days: ['mon', 'tue'] },
        deferCapped: true,
        canary: { count: 500, observeMinutes: 30, haltIf: { optOutRate: 0.01, qualityDrop: true } },
        haltIf: { failureRate: 0.05 },
      }),
    ).toEqual([
      ['Send window', "09:00–20:00 on Mon, Tue, each recipient's own time"],
      ['Over the frequency cap', 'deferred until the cap allows'],
      ['Canary rule', "first 500 people, watched 30 minutes; halts on opt-out rate above 1.0 %, a drop of the template's quality"],
      ['Halts while running on', 'failure rate above 5.0 %'],
    ]);
    expect(sendRulesFactsOf({ sendWindow: { from: '22:00', to: '06:00', timeZone: 'Europe/London' } })).toEqual([
      ['Send window', '22:00–06:00, every day, Europe/London time'],
    ]);
    expect(sendRulesFactsOf(undefined)).toEqual([]);
  });

  it('offer pause until the job finishes and resume while it is held until resumed', () => {
    const allowed = (control: 'pause' | 'resume') =>
      JOB_STATUSES.filter((status) => jobControlsOf(status, status === 'PAUSED' ? { pausedBy: 'user', failsAt: null } : undefined)[control]);
    expect(allowed('pause')).toEqual(['SCHEDULED', 'QUEUED_FOR_PROCESSING', 'PROCESSING']);
    expect(allowed('resume')).toEqual(['PAUSED']);
    // Meta paused the template (a deadline): a person's pause may replace it; resume is Meta's approval.
    expect(jobControlsOf('PAUSED', { pausedBy: 'meta', failsAt: '2026-12-03T09:00:00.000Z' })).toEqual({ pause: true, resume: false });
    expect(jobControlsOf('PAUSED', { pausedBy: 'canary', failsAt: null })).toEqual({ pause: false, resume: true });
  });

  it("list the dry run's send-window plan", () => {
    const lines = sendWindowPlanLines({ now: 1_200, later: [{ at: '2026-12-02T03:30:00.000Z', count: 300 }] });
    expect(lines[0]).toBe('Now, inside their window: 1,200');
    expect(lines[1]).toMatch(/^At .+: 300$/);
  });
});

describe("the organization's contact policy", () => {
  it('reads in words, off when there is none', () => {
    expect(contactPolicyOf({ policy: null })).toBeUndefined();
    expect(contactPolicyOf({ policy: { marketingPerPerson: 2, perDays: 7, categories: ['MARKETING'], updatedAt: 'x' } })).toEqual({
      marketingPerPerson: 2,
      perDays: 7,
      categories: ['MARKETING'],
      updatedAt: 'x',
    });
    expect(contactPolicyOf({ marketingPerPerson: 1, perDays: 1 })?.perDays).toBe(1);
    expect(contactPolicyWords(undefined)).toMatch(/^Off: no frequency cap/);
    expect(contactPolicyWords({ marketingPerPerson: 2, perDays: 7 })).toBe(
      'At most 2 marketing messages to one person in any 7 days, across every campaign and broadcast.',
    );
    expect(contactPolicyWords({ marketingPerPerson: 1, perDays: 1, categories: ['MARKETING', 'UTILITY', 'AUTHENTICATION'] })).toBe(
      'At most 1 marketing, utility and authentication message to one person in any 1 day, across every campaign and broadcast.',
    );
  });

  it("is set from the form's whole numbers and the categories chosen", () => {
    expect(contactPolicyBodyOf('2', '7', ['MARKETING'])).toEqual({ body: { marketingPerPerson: 2, perDays: 7, categories: ['MARKETING'] } });
    // Refused in the API's own words (helper "caps": contact-policy.schema.ts), behind the field's label.
    expect(contactPolicyBodyOf('0', '7', ['MARKETING']).problem).toBe('Messages per person: marketingPerPerson must be at least 1');
    expect(contactPolicyBodyOf('2', '1.5', ['MARKETING']).problem).toBe('In any (days): perDays must be a whole number');
    expect(contactPolicyBodyOf('2', '400', ['MARKETING']).problem).toBe('In any (days): perDays must be at most 365');
    expect(contactPolicyBodyOf('', '7', ['MARKETING']).problem).toBe('Messages per person: marketingPerPerson must be a number');
    expect(contactPolicyBodyOf('2', '7', []).problem).toBe('Categories counted: categories must hold at least 1 category');
  });

  it('has its own address, and only the roles of the API table change it', () => {
    expect(routeOf('#/settings')).toEqual({ page: 'settings' });
    const person = (role: Me['role']): Me => ({ organizationId: 'o', actor: 'person', role });
    expect(mayCall(person('viewer'), 'pauseJob')).toBe(false);
    expect(mayCall(person('campaign-manager'), 'pauseJob')).toBe(true);
    // Everyone reads the policy; only an admin (a person or the organization's key) changes it: the API's own table.
    const operations = new Set(serviceRoutes.map((route) => route.operation));
    for (const operation of Object.values(contactPolicyOperations)) expect(operations.has(operation)).toBe(true);
    expect(mayCall(person('viewer'), contactPolicyOperations.read)).toBe(true);
    for (const role of ['viewer', 'campaign-manager'] as const) {
      expect(mayCall(person(role), contactPolicyOperations.set)).toBe(false);
      expect(mayCall(person(role), contactPolicyOperations.remove)).toBe(false);
    }
    expect(mayCall(person('admin'), contactPolicyOperations.set)).toBe(true);
    expect(mayCall(person('admin'), contactPolicyOperations.remove)).toBe(true);
    expect(mayCall({ organizationId: 'o', actor: 'api-key', role: 'admin' }, contactPolicyOperations.set)).toBe(true);
  });
});
