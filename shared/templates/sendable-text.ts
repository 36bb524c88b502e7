/**
 * Text that can travel to WhatsApp. U+FFFE and U+FFFF are Unicode noncharacters and an unpaired
 * surrogate is half a character: WhatsApp cannot show them, and SQS (the outbound queue) refuses
 * the first two. A request holding one is refused with a 400 naming the field, before anything is
 * recorded or queued (docs/BROADCAST.md, docs/FREEFORM-AND-EARLIER.md). Emoji, combining marks and
 * right-to-left text are ordinary text and pass unchanged.
 */
import * as v from 'valibot';

/** With the `u` flag a surrogate range matches only surrogates that are not part of a pair. */
const UNSENDABLE = /[\uFFFE\uFFFF\uD800-\uDFFF]/u;

export const SENDABLE_TEXT_RULE = 'must not contain U+FFFE, U+FFFF or unpaired surrogate characters';

export const isSendableText = (value: string): boolean => !UNSENDABLE.test(value);

/** A pipe action for every string that ends up in a message or a stored job. */
export const sendableText = () => v.check(isSendableText, SENDABLE_TEXT_RULE);
