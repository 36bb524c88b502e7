/**
 * The issue-24 fields of a template broadcast request as the CLI fills them (the shapes of
 * /work/shared/spec's design: `header`, `buttons`, named `templateParams`, `carousel`,
 * `limitedTimeOffer`), and the column values they are built from. The generated client types
 * (client/api-types.ts) describe them too; the carousel file is checked card by card
 * (carousel-file.ts) and sent as written, so send-plan.ts hands the body to the client with one cast.
 */

export type MediaHeaderType = 'image' | 'video' | 'document';

export type HeaderValue =
  | { type: MediaHeaderType; link: string; filename?: string }
  | { type: MediaHeaderType; mediaId: string; filename?: string }
  | { type: 'text'; text: string }
  | { type: 'location'; latitude: number; longitude: number; name?: string; address?: string };

export type ButtonValue =
  | { index: number; type: 'url'; text: string }
  | { index: number; type: 'quick_reply'; payload: string }
  | { index: number; type: 'copy_code'; couponCode: string };

/** A recipient's own values; each wins over the broadcast-level one (buttons by index). */
export interface RowFields {
  header?: HeaderValue;
  buttons?: ButtonValue[];
  /** A NAMED template's values by name (a positional template's stay a list: param1 … paramN). */
  templateParams?: Record<string, string>;
}

/** The values common to every recipient: the request's broadcast-level fields. */
export interface BroadcastFields {
  header?: HeaderValue;
  buttons?: ButtonValue[];
  globalTemplateParams?: Record<string, string>;
  /** One card per template card, in order, as the `--carousel-file` holds them (checked card by card, then sent as written). */
  carousel?: unknown[];
  limitedTimeOffer?: { expiresAt: string };
}

/**
 * Values by column name: a row's cells, or the options that stand for a column on every row
 * (`--header-link` is `headerLink`, `--button0` is `button0`, `--param-first_name` is `first_name`).
 * An empty cell is no value.
 */
export type ColumnValues = Readonly<Record<string, string>>;
