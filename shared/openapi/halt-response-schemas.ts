/**
 * A job's pause as every answer shows it (the status answer, the campaign view, `job.paused` and
 * `campaign.paused`), with a halt's figures (docs/CAMPAIGNS.md "Canary and halt thresholds"), and
 * the campaign view's `canary` and `sendRules`.
 */
import { arrayOf, bool, int, nullableString, obj, str, type JsonSchema } from './schema-builders';

const share = (description: string): JsonSchema => ({ type: 'number', minimum: 0, maximum: 1, description });
const MEASURES = ['optOutRate', 'failureRate', 'blockRate', 'qualityDrop'];

/** The halt thresholds as given (`haltIf`). */
export const haltIfSchema: JsonSchema = obj(
  {
    optOutRate: share('Opt-outs / sent above which it halts'),
    failureRate: share('Failures by Meta’s code / sent'),
    blockRate: share('Block signals (131026) / sent'),
    qualityDrop: bool,
  },
  [],
);

/** A verdict’s figures: the measured rates beside the thresholds. */
export const haltFiguresSchema: JsonSchema = obj({
  stage: {
    type: 'string',
    enum: ['canary', 'running'],
    description: '`canary`: the first slice against `canary.haltIf`; `running`: the campaign’s own `haltIf` while it ran',
  },
  measured: obj({
    optOutRate: share('Measured opt-outs / sent'),
    failureRate: share('Measured failures / sent'),
    blockRate: share('Measured block signals / sent'),
    qualityDrop: bool,
  }),
  thresholds: haltIfSchema,
  exceeded: { ...arrayOf({ type: 'string', enum: MEASURES }), description: 'The thresholds the figures went over; empty: within them' },
  sent: { ...int, description: 'Recipients the rates are measured over: sent to Meta (since the last resumed halt, for `running`)' },
  counts: obj({ optOuts: int, failures: int, blocks: int }),
});

/** A job's pause. */
export const pauseSchema: JsonSchema = {
  ...obj(
    {
      reason: { type: 'string', description: 'e.g. TEMPLATE_PAUSED, ACCOUNT_LOCKED, PAUSED_BY_USER, CANARY_HALTED' },
      since: str,
      failsAt: nullableString,
      pausedBy: { type: 'string', enum: ['meta', 'user', 'canary'] },
      by: { type: 'string', description: 'A person’s pause: the credential that paused it' },
      code: { ...int, description: 'Meta’s error code, when a refusal of the account paused it' },
      text: { type: 'string', description: 'Meta’s words with that code' },
      halt: { ...haltFiguresSchema, description: 'Only when the canary or the halt thresholds paused it (`pausedBy: "canary"`)' },
    },
    ['reason', 'since', 'failsAt', 'pausedBy'],
  ),
  description: 'Only while PAUSED: why the job is held and by whom',
};

/** The campaign view's `canary`. */
export const canaryViewSchema: JsonSchema = {
  ...obj(
    {
      state: { type: 'string', enum: ['sending', 'observing', 'passed', 'halted'] },
      slice: { ...int, description: 'People in the first slice' },
      observeUntil: { type: 'string', description: 'Once the slice settled: when its observation ends' },
      verdict: { ...obj({ ...(haltFiguresSchema.properties as Record<string, JsonSchema>), at: str }), description: 'Once judged: the figures and when' },
    },
    ['state', 'slice'],
  ),
  description: 'Only on a launched campaign with a canary (docs/CAMPAIGNS.md "Canary and halt thresholds")',
};

/** The campaign view's `sendRules`: as given at create. */
export const sendRulesViewSchema: JsonSchema = {
  ...obj({ sendWindow: { type: 'object' }, deferCapped: bool, canary: { type: 'object' }, haltIf: haltIfSchema }, []),
  description: 'Only on a campaign given any: its send window, deferCapped, canary and halt thresholds, as given',
};
