/**
 * Number and account administration: registration (`/register`, `/deregister`), webhook
 * subscriptions (`/{waba-id}/subscribed_apps`), the block list (`/block_users`) and the
 * coexistence syncs of numbers onboarded from the WhatsApp Business app (`/smb_app_data`).
 */
import { randomBytes } from 'node:crypto';
import type { PhoneState, SmbSyncType } from '../account-state';
import { invalidParameter, whatsappRequestError } from '../graph-errors';
import { paginate } from '../graph-listing';
import type { GraphParams } from '../request-params';
import type { StoredAccount } from '../sandbox-state';
import { httpsUrl, PIN_PATTERN } from './phone-numbers';
import { ok, route, SUCCESS, type GraphRoute, type RouteContext } from './route-kit';

const HOUR_MS = 3_600_000;
/** Meta: 10 register/deregister requests per number in a 72-hour moving window. */
const REGISTRATION_CALLS_PER_WINDOW = 10;
const REGISTRATION_WINDOW_MS = 72 * HOUR_MS;
/** Coexistence history and contacts can be requested within 24 hours of onboarding. */
const SMB_SYNC_WINDOW_MS = 24 * HOUR_MS;
const RECIPIENT_PATTERN = /^\+?\d{3,15}$/;

/** The app the sandbox's tokens belong to; `subscribed_apps` subscribes it. */
export const SANDBOX_APP = { id: '7099999999999999', name: 'Cloud API Sandbox App' } as const;

const DATA_LOCALIZATION_REGIONS = ['AE', 'AU', 'BH', 'BR', 'CA', 'CH', 'DE', 'GB', 'ID', 'IN', 'JP', 'KR', 'SG', 'ZA'] as const;

type PhoneContext = RouteContext<{ kind: 'phone'; owner: StoredAccount; phone: PhoneState }>;

function requireWhatsApp(params: GraphParams): void {
  params.enumValue('messaging_product', ['whatsapp'] as const);
}

/** Counts a register/deregister call, or refuses it past Meta's limit (133016). */
function countRegistrationCall(context: PhoneContext): void {
  const { phone } = context.node;
  const now = context.now();
  phone.registrationCalls = phone.registrationCalls.filter((at) => now - at < REGISTRATION_WINDOW_MS);
  if (phone.registrationCalls.length >= REGISTRATION_CALLS_PER_WINDOW) {
    throw whatsappRequestError(
      400,
      133016,
      'Account register deregister rate limit exceeded',
      `Phone number ${phone.number.id} was registered or deregistered ${REGISTRATION_CALLS_PER_WINDOW} times in the last 72 hours`,
    );
  }
  phone.registrationCalls.push(now);
}

function register(context: PhoneContext) {
  const params = context.params();
  requireWhatsApp(params);
  const pin = params.string('pin', { pattern: PIN_PATTERN, patternHint: 'must be a 6-digit number' });
  const backup = params.optionalRecord('backup');
  backup?.optionalString('password');
  backup?.optionalString('data');
  params.optionalEnum('tier', ['PROD', 'SANDBOX'] as const);
  const region = params.optionalEnum('data_localization_region', DATA_LOCALIZATION_REGIONS);
  params.optionalInteger('meta_store_retention_minutes', { min: 60, max: 60 });

  const { phone } = context.node;
  // Registering with a PIN other than the number's two-step PIN is refused; the first
  // registration's PIN becomes the two-step PIN.
  if (phone.twoStepPin !== undefined && phone.twoStepPin !== pin) {
    countRegistrationCall(context);
    throw whatsappRequestError(400, 133005, 'Two step verification PIN Mismatch', 'The PIN does not match the two-step verification PIN of this phone number');
  }
  countRegistrationCall(context);
  phone.twoStepPin = pin;
  phone.registered = true;
  if (region !== undefined) phone.settings.storage_configuration = { status: 'in_country_storage_enabled', data_localization_region: region };
  return SUCCESS;
}

function deregister(context: PhoneContext) {
  countRegistrationCall(context);
  context.node.phone.registered = false;
  return SUCCESS;
}

/** `{ block_users: [{ user }] }` → `[input, wa_id]` pairs, validating every entry first. */
function blockListEntries(params: GraphParams): Array<{ input: string; waId: string }> {
  requireWhatsApp(params);
  const users = params.array('block_users', { min: 1, max: 1000 });
  return users.map((entry, index) => {
    const path = `block_users[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalidParameter(`Param ${path} must be a JSON object.`);
    const user = (entry as { user?: unknown }).user;
    if (user === undefined || user === null || user === '') throw invalidParameter(`The parameter ${path}['user'] is required.`);
    if (typeof user !== 'string' || !RECIPIENT_PATTERN.test(user)) {
      throw invalidParameter(`Param ${path}['user'] must be a phone number of 3 to 15 digits with an optional leading '+'.`);
    }
    return { input: user, waId: user.replace(/^\+/, '') };
  });
}

function requestSmbSync(context: PhoneContext) {
  const params = context.params();
  requireWhatsApp(params);
  const syncType: SmbSyncType = params.enumValue('sync_type', ['smb_app_state_sync', 'history'] as const);
  const { phone } = context.node;
  if (phone.smbSyncs.has(syncType)) {
    throw invalidParameter(
      `Param sync_type ${syncType} was already requested for phone number ${phone.number.id}; each sync can be requested once per onboarding.`,
    );
  }
  if (context.now() - phone.onboardedAt > SMB_SYNC_WINDOW_MS) {
    throw invalidParameter(`Param sync_type ${syncType} can only be requested within 24 hours of onboarding the phone number.`);
  }
  const requestId = randomBytes(12).toString('hex');
  phone.smbSyncs.set(syncType, requestId);
  return ok({ messaging_product: 'whatsapp', request_id: requestId, success: true });
}

/**
 * Meta's YAML types a subscribed app as `{ id, name }` while its examples (and production) nest
 * them in `whatsapp_business_api_data`; the sandbox sends both so either reading works.
 */
function renderSubscription(subscription: { appId: string; appName: string; overrideCallbackUri?: string }) {
  const app = { id: subscription.appId, name: subscription.appName, link: `https://www.facebook.com/games/?app_id=${subscription.appId}` };
  return {
    whatsapp_business_api_data: app,
    id: app.id,
    name: app.name,
    ...(subscription.overrideCallbackUri === undefined ? {} : { override_callback_uri: subscription.overrideCallbackUri }),
  };
}

export const administrationRoutes: GraphRoute[] = [
  route('phone', 'POST', 'register', register),
  route('phone', 'POST', 'deregister', deregister),
  route('phone', 'POST', 'smb_app_data', requestSmbSync),

  route('phone', 'GET', 'block_users', (context) => {
    const items = [...context.node.phone.blockedUsers.keys()].map((waId) => ({ messaging_product: 'whatsapp', wa_id: waId }));
    return ok(paginate(items, context.query, context.request.url, { keyOf: (item) => item.wa_id }));
  }),
  route('phone', 'POST', 'block_users', (context) => {
    const entries = blockListEntries(context.params());
    const blocked = context.node.phone.blockedUsers;
    for (const { input, waId } of entries) if (!blocked.has(waId)) blocked.set(waId, input);
    return ok({ messaging_product: 'whatsapp', block_users: { added_users: entries.map(({ input, waId }) => ({ input, wa_id: waId })) } });
  }),
  route('phone', 'DELETE', 'block_users', (context) => {
    const entries = blockListEntries(context.params());
    for (const { waId } of entries) context.node.phone.blockedUsers.delete(waId);
    return ok({ messaging_product: 'whatsapp', block_users: { removed_users: entries.map(({ input, waId }) => ({ input, wa_id: waId })) } });
  }),

  route('waba', 'GET', 'subscribed_apps', (context) => ok({ data: [...context.node.owner.subscriptions.values()].map(renderSubscription) })),
  route('waba', 'POST', 'subscribed_apps', (context) => {
    const params = context.params();
    const callback = httpsUrl(params, 'override_callback_uri');
    const verifyToken = params.optionalString('verify_token', { maxLength: 256 });
    // Meta verifies an override URL with the token before accepting it, so it needs both.
    if (callback !== undefined && verifyToken === undefined) throw invalidParameter('The parameter verify_token is required with override_callback_uri.');
    context.node.owner.subscriptions.set(SANDBOX_APP.id, {
      appId: SANDBOX_APP.id,
      appName: SANDBOX_APP.name,
      ...(callback === undefined ? {} : { overrideCallbackUri: callback }),
    });
    return SUCCESS;
  }),
  route('waba', 'DELETE', 'subscribed_apps', (context) => {
    context.node.owner.subscriptions.delete(SANDBOX_APP.id);
    return SUCCESS;
  }),
];
