/**
 * A send's tracked URL buttons become their recipient's token (docs/OUTCOMES.md "Tracked links"):
 * the button's `trackedUrl` (fixed at accept, kept on the job or with the recipient's own values)
 * never reaches Meta; the URL variable is the token, made from the job, the recipient and the button.
 */
import type { ButtonContent, TemplateContent } from '../templates/template-content.schema';
import { clickToken, type ClickReference } from './click-token';

/** Where a recipient of a chunk sits. */
export interface TrackedRecipient {
  jobId: string;
  chunkIndex: number;
  index: number;
}

const isTracked = (button: ButtonContent): boolean => button.type === 'url' && button.trackedUrl !== undefined;

/**
 * Whether a send of this content has a tracked button (the worker then needs the link key).
 *
 * @example
 * hasTrackedButtons({ buttons: [{ index: 0, type: 'url', trackedUrl: 'https://shop.example/p/42' }] }); // true
 */
export function hasTrackedButtons(content: TemplateContent | undefined): boolean {
  return content?.buttons?.some(isTracked) ?? false;
}

function withTokens(
  buttons: readonly ButtonContent[] | undefined,
  key: Buffer,
  where: TrackedRecipient,
  scope: ClickReference['scope'],
): ButtonContent[] | undefined {
  if (!buttons?.some(isTracked)) return buttons ? [...buttons] : undefined;
  return buttons.map((button) =>
    button.type === 'url' && button.trackedUrl !== undefined
      ? { index: button.index, type: 'url', text: clickToken(key, { ...where, buttonIndex: button.index, scope }) }
      : button,
  );
}

/**
 * The template's and the recipient's content with every tracked button's destination replaced by
 * the recipient's token: `job` scope for the broadcast's own buttons, `recipient` for the
 * recipient's (whose destination the redirect reads from the recipient's kept values).
 *
 * @example
 * withTrackedTokens(key, { buttons: [{ index: 0, type: 'url', trackedUrl: 'https://shop.example/p/42' }] }, undefined, { jobId: 'pub_1', chunkIndex: 0, index: 7 });
 * // { template: { buttons: [{ index: 0, type: 'url', text: '<token>' }] }, recipient: undefined }
 */
export function withTrackedTokens(
  key: Buffer,
  template: TemplateContent | undefined,
  recipient: TemplateContent | undefined,
  where: TrackedRecipient,
): { template: TemplateContent | undefined; recipient: TemplateContent | undefined } {
  const replace = (content: TemplateContent | undefined, scope: ClickReference['scope']): TemplateContent | undefined => {
    if (!hasTrackedButtons(content)) return content;
    return { ...content, buttons: withTokens(content!.buttons, key, where, scope) };
  };
  return { template: replace(template, 'job'), recipient: replace(recipient, 'recipient') };
}
