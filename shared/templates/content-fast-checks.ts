/**
 * Plain-code checks of a recipient's rich content for values that pass template-content.schema.ts,
 * answering exactly its output: a 10,000-recipient broadcast where every recipient has its own URL
 * suffix ran valibot's button variant 10,000 times (~18 ms of a ~150 ms accept; docs/PERFORMANCE.md
 * 3c). Each check answers the schema's output or undefined ("ask valibot", which then words the
 * issue); test/unit/broadcast/template-broadcast-parse.test.ts holds them to the schema with
 * generated values, so a rule changed there and not here fails that test.
 */
import { isSendableText } from './sendable-text';
import { MAX_BUTTONS, MAX_COUPON_CODE_LENGTH, MAX_PARAMETER_LENGTH, MAX_URL_LENGTH, type ButtonContent } from './template-content.schema';

/** A JSON object: valibot's `object` reads other objects too, but leaving them to it keeps this check simple. */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** A string of 1..maxLength UTF-16 units (valibot's `minLength` / `maxLength`) that can travel to WhatsApp. */
const isText = (value: unknown, maxLength: number): value is string =>
  typeof value === 'string' && value.length >= 1 && value.length <= maxLength && isSendableText(value);

function buttonOf(value: unknown): ButtonContent | undefined {
  if (!isPlainObject(value)) return undefined;
  const { index, type } = value;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > MAX_BUTTONS - 1) return undefined;
  // The schema's output: its own keys in its own order, unknown keys dropped.
  switch (type) {
    case 'url':
      return isText(value.text, MAX_URL_LENGTH) ? { index, type, text: value.text } : undefined;
    case 'quick_reply':
      return isText(value.payload, MAX_PARAMETER_LENGTH) ? { index, type, payload: value.payload } : undefined;
    case 'copy_code':
      return isText(value.couponCode, MAX_COUPON_CODE_LENGTH) ? { index, type, couponCode: value.couponCode } : undefined;
    default:
      return undefined;
  }
}

/**
 * `buttonsSchema`'s output for a list that passes it (1 to 10 buttons, each index once), else undefined.
 *
 * @example
 * fastButtons([{ index: 0, type: 'url', text: 'A-17', note: 'x' }]); // [{ index: 0, type: 'url', text: 'A-17' }]
 * fastButtons([{ index: 0, type: 'url', text: '' }]); // undefined: valibot words the issue
 */
export function fastButtons(value: unknown): ButtonContent[] | undefined {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_BUTTONS) return undefined;
  const buttons: ButtonContent[] = [];
  let indexes = 0;
  for (const item of value) {
    const button = buttonOf(item);
    // Indexes are 0..9: one bit each.
    if (button === undefined || (indexes & (1 << button.index)) !== 0) return undefined;
    indexes |= 1 << button.index;
    buttons.push(button);
  }
  return buttons;
}
