/**
 * The ids inside /upstream bodies (shared/upstream/body-ids.ts), shape by shape as in Meta's
 * OpenAPI (../shared/meta/business-messaging-api_v23.0.yaml), and the route table's `bodyIds`.
 */
import { upstreamRouteOf } from '../../../runtime-contract/upstream-routes';
import { RequestValidationError } from '../../../shared/http/errors';
import { idsInBody, MAX_IDS_PER_KIND } from '../../../shared/upstream/body-ids';

const none = { media: [], messages: [], flows: [], templateNames: [] };

describe('message bodies', () => {
  it.each(['image', 'video', 'audio', 'document', 'sticker'])('%s message: the MediaObject id', (kind) => {
    expect(idsInBody('message', { to: '15551234567', type: kind, [kind]: { id: 'M1', caption: 'c' } })).toEqual({ ...none, media: ['M1'] });
  });

  it('a media object by link names no id', () => {
    expect(idsInBody('message', { type: 'image', image: { link: 'https://example.com/a.png' } })).toEqual(none);
  });

  it('interactive headers (image, video, document) and carousel cards carry media ids', () => {
    const body = {
      type: 'interactive',
      interactive: {
        type: 'button',
        header: { type: 'document', document: { id: 'H1' } },
        action: {
          buttons: [],
          cards: [
            { card_index: 0, header: { type: 'image', image: { id: 'C1' } } },
            { card_index: 1, header: { type: 'video', video: { id: 'C2' } } },
          ],
        },
      },
    };
    expect(idsInBody('message', body)).toEqual({ ...none, media: ['H1', 'C1', 'C2'] });
  });

  it('replies (context.message_id) and reactions (reaction.message_id) name message ids', () => {
    expect(idsInBody('message', { type: 'text', text: { body: 'hi' }, context: { message_id: 'wamid.A' } })).toEqual({ ...none, messages: ['wamid.A'] });
    expect(idsInBody('message', { type: 'reaction', reaction: { message_id: 'wamid.B', emoji: '👍' } })).toEqual({ ...none, messages: ['wamid.B'] });
  });

  it('a flow message names its flow_id (flow_name is resolved by Meta within the sending account)', () => {
    const flow = (parameters: Record<string, unknown>) => ({
      type: 'interactive',
      interactive: { type: 'flow', action: { name: 'flow', parameters: { flow_message_version: '3', flow_cta: 'Go', ...parameters } } },
    });
    expect(
      idsInBody('message', flow({ flow_id: 'F1', flow_action_payload: { screen: 'S', data: { flow_id: 'not-an-id', image: { id: 'not-media' } } } })),
    ).toEqual({ ...none, flows: ['F1'] });
    expect(idsInBody('message', flow({ flow_name: 'signup' }))).toEqual(none);
  });

  it('a template message names its template and the media of its header parameters, carousel cards included', () => {
    const body = {
      type: 'template',
      context: { message_id: 'wamid.C' },
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { id: 'T1' } }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
          { type: 'carousel', cards: [{ card_index: 0, components: [{ type: 'header', parameters: [{ type: 'video', video: { id: 'T2' } }] }] }] },
          {
            type: 'button',
            sub_type: 'flow',
            index: '0',
            parameters: [{ type: 'action', action: { flow_token: 't', flow_action_data: { image: { id: 'x' } } } }],
          },
        ],
      },
    };
    expect(idsInBody('message', body)).toEqual({ media: ['T1', 'T2'], messages: ['wamid.C'], flows: [], templateNames: ['order_update'] });
  });

  it('each id once', () => {
    expect(
      idsInBody('message', {
        image: { id: 'M1' },
        template: { name: 't', components: [{ type: 'header', parameters: [{ type: 'image', image: { id: 'M1' } }] }] },
      }).media,
    ).toEqual(['M1']);
  });

  it('text, location and contacts messages name no id', () => {
    expect(idsInBody('message', { type: 'text', text: { body: 'image id' } })).toEqual(none);
    expect(idsInBody('message', { type: 'location', location: { latitude: 1, longitude: 2 } })).toEqual(none);
    expect(idsInBody('message', { type: 'contacts', contacts: [{ name: { formatted_name: 'A' }, phones: [{ phone: '+1', wa_id: '1' }] }] })).toEqual(none);
    expect(idsInBody('message', undefined)).toEqual(none);
  });

  it.each([
    [{ image: { id: 15 } }, 'body.image.id must be a non-empty string'],
    [{ image: { id: '' } }, 'body.image.id must be a non-empty string'],
    [{ image: { id: ['M1'] } }, 'body.image.id must be a non-empty string'],
    [{ context: { message_id: { $ne: 1 } } }, 'body.context.message_id must be a non-empty string'],
    [{ template: { name: 7 } }, 'body.template.name must be a non-empty string'],
    [{ interactive: { action: { parameters: { flow_id: 1 } } } }, 'body.interactive.action.parameters.flow_id must be a non-empty string'],
    [
      { template: { name: 't', components: [{ parameters: [{ document: { id: true } }] }] } },
      'body.template.components[0].parameters[0].document.id must be a non-empty string',
    ],
  ])('an id that is not a non-empty string is a 400 naming the field: %j', (body, message) => {
    expect(() => idsInBody('message', body)).toThrow(new RequestValidationError(message));
  });
});

it('bounds the ids of one kind a body may name (each is a look-up)', () => {
  const header = (id: string) => ({ type: 'header', parameters: [{ type: 'image', image: { id } }] });
  const recipients = (count: number) => Array.from({ length: count }, (_, index) => ({ to: String(index), components: [header(`M${index}`)] }));
  expect(idsInBody('bulk', { template: { name: 't' }, recipients: recipients(MAX_IDS_PER_KIND) }).media).toHaveLength(MAX_IDS_PER_KIND);
  expect(() => idsInBody('bulk', { template: { name: 't' }, recipients: recipients(MAX_IDS_PER_KIND + 1) })).toThrow(
    `body may name at most ${MAX_IDS_PER_KIND} distinct media ids`,
  );
});

describe('other body shapes', () => {
  it('read receipts and typing indicators: message_id', () => {
    expect(idsInBody('status', { message_id: 'wamid.R' })).toEqual({ ...none, messages: ['wamid.R'] });
    expect(() => idsInBody('status', { message_id: 5 })).toThrow('body.message_id must be a non-empty string');
  });

  it('template definitions: FLOW buttons by flow_id (carousel cards too); flow_json and flow_name name no flow of another account', () => {
    const body = {
      name: 'offer',
      components: [
        { type: 'body', text: 'Offer' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'FLOW', flow_id: 'F1', flow_action: 'navigate' },
            { type: 'FLOW', flow_json: '{}' },
            { type: 'FLOW', flow_name: 'x' },
          ],
        },
        { type: 'CAROUSEL', cards: [{ components: [{ type: 'BUTTONS', buttons: [{ type: 'FLOW', flow_id: 'F2' }] }] }] },
      ],
    };
    expect(idsInBody('template-definition', body)).toEqual({ ...none, flows: ['F1', 'F2'] });
  });

  it('bulk sends: the template name and media of shared and per-recipient components', () => {
    const header = (id: string) => ({ type: 'header', parameters: [{ type: 'image', image: { id } }] });
    const body = {
      template: { name: 'order_update', language: 'en_US', components: [header('B1')] },
      recipients: [
        { to: '1', parameters: ['x'] },
        { to: '2', components: [header('B2')] },
      ],
    };
    expect(idsInBody('bulk', body)).toEqual({ ...none, media: ['B1', 'B2'], templateNames: ['order_update'] });
  });
});

describe('the route table says which body each route carries', () => {
  it.each([
    ['sendMessage', 'message'],
    ['sendMarketingMessage', 'message'],
    ['markMessageRead', 'status'],
    ['showTypingIndicator', 'status'],
    ['sendBulkTemplate', 'bulk'],
    ['createTemplate', 'template-definition'],
    ['editTemplate', 'template-definition'],
  ])('%s: %s', (operation, shape) => {
    expect(upstreamRouteOf(operation).bodyIds).toBe(shape);
  });
});
