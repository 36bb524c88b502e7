/**
 * The rules a campaign or broadcast keeps toward the people it reaches (issue 39, docs/CAMPAIGNS.md
 * "Send windows", "Frequency caps", "Canary and halt thresholds"): when each person may be sent
 * (`sendWindow`, in their own time), what happens to a person over the organization's frequency cap
 * (`deferCapped`), and, for campaigns, a first slice watched before the rest goes (`canary`) and the
 * thresholds that halt a running campaign (`haltIf`).
 *
 * One object, `SendRules`, travels from the request to the job (`sendRules` on the job item) and
 * the campaign, and its sending part to each chunk message: a new rule is one entry here, not an
 * edit in every layer.
 */
import * as v from 'valibot';

/** Days of a send window, Monday first (ISO 8601 order). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** `HH:MM` on a 24-hour clock; `to` may also be `24:00` (the end of the day). */
const clockTime = (allowEndOfDay: boolean) =>
  v.pipe(
    v.string('must be a time "HH:MM"'),
    v.regex(
      allowEndOfDay ? /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/ : /^([01]\d|2[0-3]):[0-5]\d$/,
      `must be a time "HH:MM" (00:00 to ${allowEndOfDay ? '24:00' : '23:59'})`,
    ),
  );

const isIanaZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
};

/**
 * `sendWindow`: local hours (and days) a person may be sent. `timeZone` `recipient` (the default)
 * reads each person's own zone; an IANA zone name sends everyone on that zone's clock. `from` after
 * `to` spans midnight (`22:00`–`06:00`); `from` equal to `to` is refused (an empty or whole day).
 */
export const sendWindowSchema = v.pipe(
  v.strictObject(
    {
      from: clockTime(false),
      to: clockTime(true),
      days: v.optional(
        v.pipe(
          v.array(v.picklist(WEEKDAYS, `must be one of ${WEEKDAYS.join(', ')}`), 'must be an array of days'),
          v.minLength(1, 'must hold at least 1 day'),
          v.check((days) => new Set(days).size === days.length, 'must not repeat a day'),
        ),
      ),
      timeZone: v.optional(
        v.union(
          [v.literal('recipient'), v.pipe(v.string(), v.check(isIanaZone, 'must be "recipient" or an IANA time zone name such as "Europe/London"'))],
          'must be "recipient" or an IANA time zone name such as "Europe/London"',
        ),
      ),
    },
    'must hold only from, to, days and timeZone',
  ),
  v.check((window) => window.from !== window.to, 'from and to must differ'),
);
export type SendWindow = v.InferOutput<typeof sendWindowSchema>;

const rate = v.pipe(v.number('must be a number'), v.minValue(0, 'must be at least 0'), v.maxValue(1, 'must be at most 1 (a share, 0.01 = 1 %)'));

/**
 * `haltIf`: the shares of the recipients sent so far above which a campaign pauses itself
 * (`pausedBy: "canary"`). At least one threshold.
 */
export const haltIfSchema = v.pipe(
  v.strictObject(
    {
      optOutRate: v.optional(rate),
      failureRate: v.optional(rate),
      blockRate: v.optional(rate),
      qualityDrop: v.optional(v.boolean('must be true or false')),
    },
    'must hold only optOutRate, failureRate, blockRate and qualityDrop',
  ),
  v.check((haltIf) => Object.values(haltIf).some((value) => value !== undefined && value !== false), 'must hold at least one threshold'),
);
export type HaltIf = v.InferOutput<typeof haltIfSchema>;

/** The largest canary slice by share: at most half the audience goes before the verdict. */
export const MAX_CANARY_PERCENT = 50;

/**
 * `canary`: a first slice (`percent` of the audience, or `count` people; both: the smaller; neither:
 * 5 %) is sent, then watched for `observeMinutes` against `haltIf` before the rest goes.
 */
export const canarySchema = v.strictObject(
  {
    percent: v.optional(
      v.pipe(
        v.number('must be a number'),
        v.check((percent) => percent > 0, 'must be more than 0'),
        v.maxValue(MAX_CANARY_PERCENT, `must be at most ${MAX_CANARY_PERCENT}`),
      ),
    ),
    count: v.optional(
      v.pipe(
        v.number('must be a whole number'),
        v.integer('must be a whole number'),
        v.minValue(1, 'must be at least 1'),
        v.maxValue(1_000_000, 'must be at most 1000000'),
      ),
    ),
    observeMinutes: v.pipe(
      v.number('must be a whole number of minutes'),
      v.integer('must be a whole number of minutes'),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(1440, 'must be at most 1440 (a day)'),
    ),
    haltIf: haltIfSchema,
  },
  'must hold only percent, count, observeMinutes and haltIf',
);
export type Canary = v.InferOutput<typeof canarySchema>;

/** The request fields a broadcast takes (spread into its body's schema). */
export const broadcastSendRulesEntries = {
  /** Local hours (and days) each recipient may be sent (docs/CAMPAIGNS.md "Send windows"). */
  sendWindow: v.optional(sendWindowSchema),
  /** A recipient over the organization's frequency cap waits until the cap allows instead of being skipped FREQUENCY_CAPPED. */
  deferCapped: v.optional(v.boolean('must be true or false')),
};

/** The request fields a campaign takes: a broadcast's, and the canary and halt thresholds. */
export const campaignSendRulesEntries = {
  ...broadcastSendRulesEntries,
  /** A first slice sent and watched before the rest (docs/CAMPAIGNS.md "Canary and halt thresholds"). */
  canary: v.optional(canarySchema),
  /** Thresholds that pause the campaign while it runs, with or without a canary. */
  haltIf: v.optional(haltIfSchema),
};

/** The stored form: every rule a job or campaign was given (absent ones left out). */
export const sendRulesSchema = v.object({
  sendWindow: v.optional(sendWindowSchema),
  deferCapped: v.optional(v.boolean()),
  canary: v.optional(canarySchema),
  haltIf: v.optional(haltIfSchema),
});
export type SendRules = v.InferOutput<typeof sendRulesSchema>;

/** What a chunk message carries to the worker: the rules deciding each send (the canary and thresholds are the expander's). */
export const chunkSendRulesSchema = v.object({
  sendWindow: v.optional(sendWindowSchema),
  deferCapped: v.optional(v.boolean()),
});
export type ChunkSendRules = v.InferOutput<typeof chunkSendRulesSchema>;

/**
 * The rules of a request (a parsed broadcast or campaign body), or undefined when it gave none, so a
 * job without rules is stored exactly as before.
 *
 * @example
 * sendRulesOf({ broadcastName: 'x', sendWindow: { from: '09:00', to: '20:00' } }); // { sendWindow: { from: '09:00', to: '20:00' } }
 * sendRulesOf({ broadcastName: 'x' }); // undefined
 */
export function sendRulesOf(request: Partial<SendRules>): SendRules | undefined {
  const rules: SendRules = {};
  if (request.sendWindow !== undefined) rules.sendWindow = request.sendWindow;
  if (request.deferCapped !== undefined) rules.deferCapped = request.deferCapped;
  if (request.canary !== undefined) rules.canary = request.canary;
  if (request.haltIf !== undefined) rules.haltIf = request.haltIf;
  return Object.keys(rules).length > 0 ? rules : undefined;
}

/**
 * `{ sendRules }` to spread into a job or campaign when there are rules, nothing otherwise (so an
 * item without rules keeps its old attributes).
 *
 * @example
 * newJob({ kind: 'template', ...withSendRules(sendRulesOf(request)) }, options);
 */
export const withSendRules = (rules: SendRules | undefined): { sendRules?: SendRules } => (rules === undefined ? {} : { sendRules: rules });

/**
 * The part of a job's rules each chunk message carries, or undefined when none applies to a send.
 *
 * @example
 * chunkSendRulesOf({ sendWindow: { from: '09:00', to: '20:00' }, canary }); // { sendWindow: { from: '09:00', to: '20:00' } }
 */
export function chunkSendRulesOf(rules: SendRules | undefined): ChunkSendRules | undefined {
  if (!rules) return undefined;
  const chunk: ChunkSendRules = {};
  if (rules.sendWindow !== undefined) chunk.sendWindow = rules.sendWindow;
  if (rules.deferCapped === true) chunk.deferCapped = true;
  return Object.keys(chunk).length > 0 ? chunk : undefined;
}
