/**
 * Ids inside /upstream request bodies that name objects of a business (docs/UPSTREAM-WRAPPER.md,
 * "Ids inside message bodies"), located by the shapes of Meta's OpenAPI
 * (../shared/meta/business-messaging-api_v23.0.yaml): MediaObject `id` of image, video, audio,
 * document and sticker messages, of interactive headers (and carousel cards) and of template
 * header parameters (and carousel cards); MessageContext `message_id` (replies), a reaction's
 * `message_id`, MarkMessageRequestPayload `message_id`; a flow message's `flow_id`; a template
 * message's `name`; a template definition's FLOW button `flow_id`.
 *
 * Pure: no I/O. Anything present in an id's place that is not a non-empty string is a 400, so a
 * value the checks cannot read never reaches Meta unchecked.
 */
import type { UpstreamRouteSpec } from '../../runtime-contract/upstream-routes';
import { RequestValidationError } from '../http/errors';

/** Which body a route carries (runtime-contract/upstream-routes.ts `bodyIds`). */
export type BodyIdShape = NonNullable<UpstreamRouteSpec['bodyIds']>;

export interface BodyIds {
  media: string[];
  messages: string[];
  flows: string[];
  templateNames: string[];
}

type Json = Record<string, unknown>;

const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const;

/** More distinct ids of one kind than any real body names (a bulk send: 100 recipients, a carousel: 10 cards); bounds the look-ups. */
export const MAX_IDS_PER_KIND = 200;
const KIND_NAMES = { media: 'media ids', messages: 'message ids', flows: 'flow ids', templateNames: 'template names' } as const;

const objectAt = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const listAt = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

class Collector {
  readonly found = { media: new Set<string>(), messages: new Set<string>(), flows: new Set<string>(), templateNames: new Set<string>() };

  /** Adds `holder[field]` when present; a present value that is not a non-empty string is a 400. */
  add(kind: keyof Collector['found'], holder: Json | undefined, field: string, path: string): void {
    const value = holder?.[field];
    if (value === undefined || value === null) return;
    if (typeof value !== 'string' || value.length === 0) throw new RequestValidationError(`${path}.${field} must be a non-empty string`);
    this.found[kind].add(value);
    if (this.found[kind].size > MAX_IDS_PER_KIND) throw new RequestValidationError(`body may name at most ${MAX_IDS_PER_KIND} distinct ${KIND_NAMES[kind]}`);
  }

  /** `holder.image.id`, `holder.video.id`, ...: a MediaObject by id (a `link` names no object of ours). */
  media(holder: Json | undefined, path: string, kinds: readonly string[] = MEDIA_KINDS): void {
    for (const kind of kinds) this.add('media', objectAt(holder?.[kind]), 'id', `${path}.${kind}`);
  }

  /** Template components: header (and any) parameters carrying media; carousel cards' own components. */
  templateComponents(components: unknown, path: string): void {
    listAt(components).forEach((item, index) => {
      const component = objectAt(item);
      const at = `${path}[${index}]`;
      listAt(component?.parameters).forEach((parameter, position) => this.media(objectAt(parameter), `${at}.parameters[${position}]`));
      listAt(component?.cards).forEach((card, position) => this.templateComponents(objectAt(card)?.components, `${at}.cards[${position}].components`));
    });
  }

  /** Template definitions: FLOW buttons name a flow by `flow_id` (a `flow_json` or `flow_name` names none of another account). */
  templateDefinition(components: unknown, path: string): void {
    listAt(components).forEach((item, index) => {
      const component = objectAt(item);
      const at = `${path}[${index}]`;
      listAt(component?.buttons).forEach((button, position) => this.add('flows', objectAt(button), 'flow_id', `${at}.buttons[${position}]`));
      listAt(component?.cards).forEach((card, position) => this.templateDefinition(objectAt(card)?.components, `${at}.cards[${position}].components`));
    });
  }

  template(template: Json | undefined, path: string): void {
    if (!template) return;
    this.add('templateNames', template, 'name', path);
    this.templateComponents(template.components, `${path}.components`);
  }

  message(body: Json): void {
    this.media(body, 'body');
    this.add('messages', objectAt(body.context), 'message_id', 'body.context');
    this.add('messages', objectAt(body.reaction), 'message_id', 'body.reaction');
    const interactive = objectAt(body.interactive);
    this.media(objectAt(interactive?.header), 'body.interactive.header', ['image', 'video', 'document']);
    const action = objectAt(interactive?.action);
    this.add('flows', objectAt(action?.parameters), 'flow_id', 'body.interactive.action.parameters');
    listAt(action?.cards).forEach((card, index) =>
      this.media(objectAt(objectAt(card)?.header), `body.interactive.action.cards[${index}].header`, ['image', 'video', 'document']),
    );
    this.template(objectAt(body.template), 'body.template');
  }
}

/** The ids a body of the given shape names, each once. */
export function idsInBody(shape: BodyIdShape, body: unknown): BodyIds {
  const given = objectAt(body) ?? {};
  const collector = new Collector();
  switch (shape) {
    case 'message':
      collector.message(given);
      break;
    case 'status':
      collector.add('messages', given, 'message_id', 'body');
      break;
    case 'template-definition':
      collector.templateDefinition(given.components, 'body.components');
      break;
    case 'bulk':
      collector.template(objectAt(given.template), 'body.template');
      listAt(given.recipients).forEach((recipient, index) =>
        collector.templateComponents(objectAt(recipient)?.components, `body.recipients[${index}].components`),
      );
      break;
  }
  const { media, messages, flows, templateNames } = collector.found;
  return { media: [...media], messages: [...messages], flows: [...flows], templateNames: [...templateNames] };
}

/** True when the body names no id the wrapper checks. */
export const noBodyIds = (ids: BodyIds): boolean => ids.media.length + ids.messages.length + ids.flows.length + ids.templateNames.length === 0;
