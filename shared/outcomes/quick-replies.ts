/**
 * A job's quick-reply buttons, kept on the job at accept (`template.quickReplies`), and the index of
 * a tap among them (docs/OUTCOMES.md "Attribution"). Meta's tap carries the payload the send gave
 * the button, or the button's label when it gave none; an interactive message's `button_reply`
 * carries the id we gave. Either is matched against the payloads given first, then the labels.
 */
import type { QuickReplyButton } from '../delivery/ports';

/** A template's components as Meta lists them (the UpstreamTemplate shape). */
type Component = { type: string; [key: string]: unknown };
/** A broadcast-wide button value given at accept (the job's `template.content.buttons`). */
type GivenButton = { index: number; type: string; payload?: string };

/**
 * The template's quick-reply buttons with the payloads the broadcast gave them (undefined when it has none).
 *
 * @example
 * quickRepliesOf([{ type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Yes' }, { type: 'QUICK_REPLY', text: 'Stop' }] }], [{ index: 1, type: 'quick_reply', payload: 'STOP-PROMO' }]);
 * // [{ index: 0, text: 'Yes' }, { index: 1, text: 'Stop', payload: 'STOP-PROMO' }]
 */
export function quickRepliesOf(components: readonly Component[], given: readonly GivenButton[] = []): QuickReplyButton[] | undefined {
  const buttons = components.find((component) => String(component.type).toUpperCase() === 'BUTTONS')?.buttons;
  if (!Array.isArray(buttons)) return undefined;
  const found = buttons.flatMap((button: Record<string, unknown>, index): QuickReplyButton[] => {
    if (String(button.type).toUpperCase() !== 'QUICK_REPLY') return [];
    const payload = given.find((value) => value.index === index && value.type === 'quick_reply')?.payload;
    return [{ index, ...(typeof button.text === 'string' ? { text: button.text } : {}), ...(payload === undefined ? {} : { payload }) }];
  });
  return found.length === 0 ? undefined : found;
}

/**
 * The index of the tapped button: the payload given at accept, else the label; -1 when none matches
 * (a template changed since, a per-recipient payload, or another message's buttons).
 *
 * @example tappedIndexOf([{ index: 0, text: 'Yes' }, { index: 1, text: 'Stop', payload: 'STOP-PROMO' }], { payload: 'STOP-PROMO', text: 'Stop' }); // 1
 */
export function tappedIndexOf(buttons: readonly QuickReplyButton[] | undefined, tap: { payload: string; text: string }): number {
  if (!buttons) return -1;
  const byPayload = buttons.find((button) => button.payload !== undefined && button.payload === tap.payload);
  if (byPayload) return byPayload.index;
  const byText = buttons.find(
    (button) => button.payload === undefined && button.text !== undefined && (button.text === tap.payload || button.text === tap.text),
  );
  return byText ? byText.index : -1;
}
