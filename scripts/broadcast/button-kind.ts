/**
 * The button columns `button0` … `button9` (and `--button0` … `--button9`), one per button by its
 * index in the template (`parameters.buttons`): a URL button with a variable takes the URL's
 * variable part (`text`), a COPY_CODE button its coupon code (`couponCode`), a QUICK_REPLY button
 * an optional payload (`payload`). Every other button takes no value. A row's entries join the
 * broadcast's by index (the service merges them), so a row carries only its own cells.
 */
import { TemplateChoiceError } from './errors';
import type { ButtonValue } from './request-fields';
import type { ButtonParameter } from './template-parameters';
import { ownValues, parameterValueProblems, type ValueKind } from './value-kinds';

/** Meta allows at most 10 buttons on a template. */
export const buttonColumns = Array.from({ length: 10 }, (_, index) => `button${index}`);

const buttonColumn = /^button(\d)$/;
const indexOf = (column: string): number | undefined => {
  const match = buttonColumn.exec(column);
  return match ? Number(match[1]) : undefined;
};

/** The request entry each fillable button type becomes. */
const entryOf: Readonly<Record<string, (index: number, value: string) => ButtonValue>> = {
  URL: (index, text) => ({ index, type: 'url', text }),
  COPY_CODE: (index, couponCode) => ({ index, type: 'copy_code', couponCode }),
  QUICK_REPLY: (index, payload) => ({ index, type: 'quick_reply', payload }),
};

const takesValue = (button: ButtonParameter): boolean => Boolean(entryOf[button.type]) && (button.type !== 'URL' || button.dynamic === true);

/** What a button is, in a problem's words: `a URL button with a variable`. */
export function describeButton(button: ButtonParameter): string {
  if (button.type === 'URL') return `a URL button ${button.dynamic ? 'with' : 'without'} a variable`;
  if (button.type === 'COPY_CODE') return 'a COPY_CODE button (its coupon code)';
  return `a ${button.type} button`;
}

/**
 * The button kind of a template.
 *
 * @example
 * buttonKind([{ index: 0, type: 'URL', dynamic: true }], 'order_shipped (en_US)').required;
 * // [{ columns: ['button0'], because: "the template's button 0 is a URL button with a variable" }]
 */
export function buttonKind(buttons: readonly ButtonParameter[] | undefined, template: string): ValueKind<ButtonValue[]> {
  const byIndex = new Map((buttons ?? []).map((button) => [button.index, button]));
  for (const button of byIndex.values()) {
    if (button.dynamic && !takesValue(button)) {
      throw new TemplateChoiceError(`template ${template} has a ${button.type} button (button ${button.index}) that needs a value this CLI cannot give`);
    }
  }
  const fillable = (column: string): boolean => {
    const button = byIndex.get(indexOf(column) ?? -1);
    return button !== undefined && takesValue(button);
  };
  const indexes = [...byIndex.keys()].sort((a, b) => a - b);
  return {
    claims: (column) => indexOf(column) !== undefined,
    columns: buttonColumns.filter(fillable),
    refusal: (column) => {
      const index = indexOf(column)!;
      const button = byIndex.get(index);
      if (!button) return indexes.length === 0 ? 'the template has no buttons' : `the template has no button ${index} (its buttons are ${indexes.join(', ')})`;
      return takesValue(button) ? undefined : `the template's button ${index} is ${describeButton(button)}: it takes no value`;
    },
    required: [...byIndex.values()]
      .filter((button) => button.dynamic)
      .map((button) => ({ columns: [`button${button.index}`], because: `the template's button ${button.index} is ${describeButton(button)}` })),
    build: (values, nameOf) => {
      const problems: string[] = [];
      const entries: ButtonValue[] = [];
      for (const column of buttonColumns) {
        const value = values[column];
        if (!value || !fillable(column)) continue;
        const broken = parameterValueProblems(nameOf(column), value);
        problems.push(...broken);
        if (broken.length === 0) entries.push(entryOf[byIndex.get(indexOf(column)!)!.type]!(indexOf(column)!, value));
      }
      return problems.length > 0 || entries.length === 0 ? { problems } : { field: entries, problems };
    },
    rowValues: (cells) => {
      const own = ownValues(cells, fillable);
      return Object.keys(own).length === 0 ? undefined : own;
    },
  };
}
