/**
 * Phone numbers: `GET /{waba-id}/phone_numbers`, `GET /{phone-number-id}` (any field, including
 * `conversational_automation`) and `POST /{phone-number-id}` (two-step verification PIN and the
 * number's configuration, per the YAML's PhoneNumberStatusUpdateRequest).
 */
import { invalidParameter } from '../graph-errors';
import { PHONE_NUMBER_NODE, paginate, parseFields, renderPhoneNumber, selectFields } from '../graph-listing';
import type { ParamReader } from '../request-params';
import { ok, route, SUCCESS, type GraphRoute } from './route-kit';

export const PIN_PATTERN = /^\d{6}$/;
const PIN_HINT = 'must be a 6-digit number';

/** Meta requires HTTPS callback URLs; so does the sandbox, so a local http URL fails here first. */
export function httpsUrl(params: ParamReader, key: string): string | undefined {
  const value = params.optionalString(key, { maxLength: 2048 });
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter(`Param ${params.path(key)} must be a valid URL.`);
  }
  if (url.protocol !== 'https:') throw invalidParameter(`Param ${params.path(key)} must be an HTTPS URL.`);
  return value;
}

/** The writable keys of POST /{phone-number-id}; others in the YAML are not Cloud API settings. */
const WRITABLE = ['pin', 'whatsapp_business_api_data', 'webhook_configuration', 'new_display_name', 'search_visibility'];

export const phoneNumberRoutes: GraphRoute[] = [
  route('waba', 'GET', 'phone_numbers', (context) => {
    const fields = parseFields(context.query.get('fields'), PHONE_NUMBER_NODE);
    const items = [...context.node.owner.phones.values()].map((phone) =>
      selectFields(
        renderPhoneNumber(phone, context.deps.control.throughputFor(phone.number.id), context.deps.control.messagingLimitFor(phone.number.id)),
        fields,
      ),
    );
    return ok(paginate(items, context.query, context.request.url));
  }),

  route('phone', 'GET', null, (context) => {
    const { phone } = context.node;
    const fields = parseFields(context.query.get('fields'), PHONE_NUMBER_NODE);
    return ok(
      selectFields(
        renderPhoneNumber(phone, context.deps.control.throughputFor(phone.number.id), context.deps.control.messagingLimitFor(phone.number.id)),
        fields,
      ),
    );
  }),

  route('phone', 'POST', null, (context) => {
    const params = context.params();
    const unsupported = params.keys().filter((key) => !WRITABLE.includes(key));
    if (unsupported.length > 0) {
      throw invalidParameter(`Param ${unsupported[0]} cannot be set on a phone number; settable are ${WRITABLE.join(', ')}.`);
    }
    if (params.keys().length === 0) throw invalidParameter(`At least one of ${WRITABLE.join(', ')} is required.`);

    const pin = params.optionalString('pin', { pattern: PIN_PATTERN, patternHint: PIN_HINT });
    const apiData = params.optionalRecord('whatsapp_business_api_data');
    const nestedPin = apiData?.optionalString('pin', { pattern: PIN_PATTERN, patternHint: PIN_HINT });
    const showNotifications = apiData?.optionalBoolean('show_security_notifications');
    const notifyChange = apiData?.optionalBoolean('notify_user_change_number');
    const webhook = params.optionalRecord('webhook_configuration');
    const callback = webhook === undefined ? undefined : httpsUrl(webhook, 'override_callback_uri');
    if (webhook !== undefined && callback === undefined) throw invalidParameter(`The parameter ${webhook.path('override_callback_uri')} is required.`);
    const verifyToken = webhook?.optionalString('verify_token', { maxLength: 256 });
    const displayName = params.optionalString('new_display_name', { minLength: 2, maxLength: 75 });
    const visibility = params.optionalEnum('search_visibility', ['VISIBLE', 'HIDDEN'] as const);

    // Everything validated: apply all of it or nothing.
    const { phone } = context.node;
    const { configuration } = phone;
    if (pin !== undefined || nestedPin !== undefined) phone.twoStepPin = pin ?? nestedPin;
    if (showNotifications !== undefined) configuration.showSecurityNotifications = showNotifications;
    if (notifyChange !== undefined) configuration.notifyUserChangeNumber = notifyChange;
    if (callback !== undefined) {
      configuration.webhookConfiguration = { override_callback_uri: callback, ...(verifyToken === undefined ? {} : { verify_token: verifyToken }) };
    }
    if (displayName !== undefined) configuration.newDisplayName = displayName;
    if (visibility !== undefined) configuration.searchVisibility = visibility;
    return SUCCESS;
  }),
];
