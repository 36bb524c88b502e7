/**
 * A plain-code check of a valibot object schema for values that pass it, derived from the schema's
 * entries: for lists of thousands of items (the template broadcast's 10,000 recipients) where
 * running valibot per item is most of the accept path's validation time.
 *
 * The check only ever answers "passes, and this is valibot's output" or "ask valibot": it walks
 * the schema's own entries in order (so its output has valibot's keys in valibot's order, unknown
 * keys dropped as `v.object` drops them), runs a plain-code check where one is given and the
 * entry's own schema otherwise. A field added to the schema is therefore validated and kept
 * without touching the fast checks; a fast check that answered differently from its entry would
 * be a defect, which test/unit/broadcast/template-broadcast-parse.test.ts hunts for with generated
 * values.
 */
import * as v from 'valibot';

/** A fast check's answer for a value its entry's schema would refuse (or that it leaves to valibot). */
export const ASK_VALIBOT: unique symbol = Symbol('ask valibot');

/** Returns the entry's output exactly as its schema would, or ASK_VALIBOT. */
export type FastEntryCheck<Output> = (value: unknown) => Output | typeof ASK_VALIBOT;

export type FastEntryChecks<Entries extends v.ObjectEntries> = {
  readonly [Key in keyof Entries]?: FastEntryCheck<v.InferOutput<Entries[Key]>>;
};

interface EntryPlan {
  key: string;
  check: FastEntryCheck<unknown>;
  /** valibot leaves an absent optional entry out, unless a default or fallback fills it. */
  leftOutWhenAbsent: boolean;
}

const entrySchemaCheck =
  (schema: v.GenericSchema): FastEntryCheck<unknown> =>
  (value) => {
    const result = v.safeParse(schema, value);
    return result.success ? result.output : ASK_VALIBOT;
  };

function leftOutWhenAbsent(schema: v.GenericSchema): boolean {
  const optional = schema.type === 'optional' || schema.type === 'exact_optional' || schema.type === 'nullish';
  const filled = (schema as { default?: unknown }).default !== undefined || (schema as { fallback?: unknown }).fallback !== undefined;
  return optional && !filled;
}

/**
 * The fast path of `schema`: a function answering valibot's output for a value that passes every
 * rule of the schema, and undefined for anything else (then valibot judges it and words the issue).
 * It may answer undefined for a value that passes: the caller then runs valibot, which is slower
 * but answers the same.
 *
 * @example
 * const recipient = v.object({ countryCode: v.string(), note: v.optional(v.string()) });
 * const passing = objectFastPath(recipient, { countryCode: (value) => (typeof value === 'string' ? value : ASK_VALIBOT) });
 * passing({ countryCode: '44', note: 'n', extra: 1 }); // { countryCode: '44', note: 'n' }
 * passing({ countryCode: 44 }); // undefined
 */
export function objectFastPath<Entries extends v.ObjectEntries>(
  schema: v.ObjectSchema<Entries, v.ErrorMessage<v.ObjectIssue> | undefined>,
  fastChecks: FastEntryChecks<NoInfer<Entries>>,
): (value: unknown) => v.InferOutput<typeof schema> | undefined {
  const plans: EntryPlan[] = Object.entries(schema.entries).map(([key, entry]) => ({
    key,
    check: (fastChecks[key as keyof Entries] as FastEntryCheck<unknown> | undefined) ?? entrySchemaCheck(entry),
    leftOutWhenAbsent: leftOutWhenAbsent(entry),
  }));
  return (value) => {
    // valibot's object takes arrays too; leaving them to it keeps this check simple.
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const output: Record<string, unknown> = {};
    for (let index = 0; index < plans.length; index += 1) {
      const plan = plans[index]!;
      const entry = (value as Record<string, unknown>)[plan.key];
      if (entry === undefined) {
        // Absent (`in`, as valibot's object reads its input, inherited keys included): left out when
        // optional; present as undefined: valibot decides (an optional entry would keep the key).
        if (plan.leftOutWhenAbsent && !(plan.key in value)) continue;
        return undefined;
      }
      const checked = plan.check(entry);
      if (checked === ASK_VALIBOT) return undefined;
      output[plan.key] = checked;
    }
    return output as v.InferOutput<typeof schema>;
  };
}
