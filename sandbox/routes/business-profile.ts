/**
 * `GET`/`POST /{phone-number-id}/whatsapp_business_profile` and `GET`/`POST
 * /{phone-number-id}/settings`, validated per the YAML's WhatsAppBusinessProfileUpdateRequest
 * and settings request schemas.
 */
import { createHash } from 'node:crypto';
import type { BusinessProfile, PhoneState } from '../account-state';
import { invalidParameter, nonexistingField } from '../graph-errors';
import type { ParamReader } from '../request-params';
import type { StoredAccount } from '../sandbox-state';
import { ok, route, SUCCESS, type GraphRoute, type RouteContext } from './route-kit';

export const BUSINESS_VERTICALS = [
  'OTHER',
  'AUTO',
  'BEAUTY',
  'APPAREL',
  'EDU',
  'ENTERTAIN',
  'EVENT_PLAN',
  'FINANCE',
  'GROCERY',
  'GOVT',
  'HOTEL',
  'HEALTH',
  'NONPROFIT',
  'PROF_SERVICES',
  'RETAIL',
  'TRAVEL',
  'RESTAURANT',
  'ALCOHOL',
  'ONLINE_GAMBLING',
  'PHYSICAL_GAMBLING',
  'OTC_DRUGS',
] as const;

const PROFILE_FIELDS = ['about', 'address', 'description', 'email', 'profile_picture_url', 'websites', 'vertical', 'messaging_product'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Meta's calling media servers; reported so clients that read `ip_addresses` get a realistic list. */
const CALLING_IP_ADDRESSES = ['157.240.0.1', '157.240.0.2'];

type PhoneContext = RouteContext<{ kind: 'phone'; owner: StoredAccount; phone: PhoneState }>;

function renderProfile(profile: BusinessProfile): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    ...(profile.about === undefined ? {} : { about: profile.about }),
    ...(profile.address === undefined ? {} : { address: profile.address }),
    ...(profile.description === undefined ? {} : { description: profile.description }),
    ...(profile.email === undefined ? {} : { email: profile.email }),
    // The picture itself lives on Meta's CDN; the sandbox derives a stable URL from the handle.
    ...(profile.profilePictureHandle === undefined
      ? {}
      : {
          profile_picture_url: `https://pps.whatsapp.net/v/t61.24694-24/${createHash('sha256').update(profile.profilePictureHandle).digest('hex').slice(0, 24)}_n.jpg`,
        }),
    websites: [...(profile.websites ?? [])],
    vertical: profile.vertical ?? 'OTHER',
  };
}

function getProfile(context: PhoneContext) {
  const raw = context.query.get('fields');
  const requested =
    raw === null || raw.trim() === ''
      ? PROFILE_FIELDS
      : raw
          .split(',')
          .map((field) => field.trim())
          .filter(Boolean);
  for (const field of requested) if (!PROFILE_FIELDS.includes(field)) throw nonexistingField(field, 'WhatsAppBusinessProfile');
  const full = renderProfile(context.node.phone.profile);
  const selected: Record<string, unknown> = { messaging_product: 'whatsapp' };
  for (const field of requested) if (field in full) selected[field] = full[field];
  // The shape of Meta's OpenAPI description (the authority here): each item nests the profile in
  // `business_profile`, every field once.
  return ok({ data: [{ business_profile: selected }] });
}

function updateProfile(context: PhoneContext) {
  const params = context.params();
  params.enumValue('messaging_product', ['whatsapp'] as const);
  // "" clears a field (Meta's way of removing an address or description); `about` cannot be empty.
  const clearable = (key: string, maxLength: number, pattern?: RegExp) =>
    params.raw(key) === ''
      ? null
      : params.optionalString(key, { maxLength, ...(pattern === undefined ? {} : { pattern, patternHint: 'must be a valid email address' }) });
  const about = params.raw('about') === '' ? invalidAbout() : params.optionalString('about', { minLength: 1, maxLength: 139 });
  const address = clearable('address', 256);
  const description = clearable('description', 256);
  const email = clearable('email', 128, EMAIL);
  const handle = params.optionalString('profile_picture_handle');
  const websites = params.optionalStringArray('websites', { max: 2 })?.map((website, index) => {
    if (website.length > 256) throw invalidParameter(`Param websites[${index}] must be at most 256 characters long.`);
    if (!/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(website)) throw invalidParameter(`Param websites[${index}] must be a URL starting with http:// or https://.`);
    return website;
  });
  const vertical = params.optionalEnum('vertical', BUSINESS_VERTICALS);

  const { profile } = context.node.phone;
  if (about !== undefined) profile.about = about;
  for (const [key, value] of [
    ['address', address],
    ['description', description],
    ['email', email],
  ] as const) {
    if (value === null) delete profile[key];
    else if (value !== undefined) profile[key] = value;
  }
  if (handle !== undefined) profile.profilePictureHandle = handle;
  if (websites !== undefined) profile.websites = websites;
  if (vertical !== undefined) profile.vertical = vertical;
  return SUCCESS;
}

function invalidAbout(): never {
  throw invalidParameter('Param about must be at least 1 characters long.');
}

function getSettings(context: PhoneContext) {
  const { settings } = context.node.phone;
  return ok({
    calling: { ...structuredClone(settings.calling), ip_addresses: { default: [...CALLING_IP_ADDRESSES] } },
    payload_encryption: structuredClone(settings.payload_encryption),
    storage_configuration: structuredClone(settings.storage_configuration),
    user_identity_change: structuredClone(settings.user_identity_change),
  });
}

const ENABLED = ['enabled', 'disabled'] as const;

function updateSettings(context: PhoneContext) {
  const params = context.params();
  const calling = params.optionalRecord('calling');
  const identity = params.optionalRecord('user_identity_change');
  const encryption = params.optionalRecord('payload_encryption');
  const storage = params.optionalRecord('storage_configuration');
  if (calling === undefined && identity === undefined && encryption === undefined && storage === undefined) {
    throw invalidParameter('At least one of calling, user_identity_change, payload_encryption, storage_configuration is required.');
  }

  const callingUpdate = calling === undefined ? undefined : readCalling(calling);
  const identityEnabled = identity?.optionalBoolean('enabled');
  if (identity !== undefined && identityEnabled === undefined) throw invalidParameter(`The parameter ${identity.path('enabled')} is required.`);
  const encryptionStatus = encryption?.enumValue('status', ENABLED);
  const encryptionKey = encryption?.optionalString('client_encryption_key');
  const storageEnabled = storage?.optionalBoolean('enabled');
  if (storage !== undefined && storageEnabled === undefined) throw invalidParameter(`The parameter ${storage.path('enabled')} is required.`);
  const region = storage?.optionalString('region', { pattern: /^[A-Za-z]{2}$/, patternHint: 'must be a two-letter region code' });
  if (storageEnabled === true && region === undefined)
    throw invalidParameter(`The parameter ${storage?.path('region') ?? 'region'} is required when storage is enabled.`);

  const { settings } = context.node.phone;
  if (callingUpdate !== undefined) settings.calling = { ...settings.calling, ...callingUpdate };
  if (identityEnabled !== undefined) settings.user_identity_change = { enabled: identityEnabled };
  if (encryptionStatus !== undefined) {
    settings.payload_encryption = {
      status: encryptionStatus,
      // Meta reports a fingerprint of the client key, never the key itself.
      ...(encryptionKey === undefined || encryptionStatus === 'disabled'
        ? {}
        : { client_encryption_key_fingerprint: `SHA256:${createHash('sha256').update(encryptionKey).digest('base64')}` }),
    };
  }
  if (storageEnabled !== undefined) {
    settings.storage_configuration = storageEnabled ? { status: 'in_country_storage_enabled', data_localization_region: region ?? '' } : { status: 'default' };
  }
  return SUCCESS;
}

function readCalling(calling: ParamReader): Record<string, unknown> & { status: 'enabled' | 'disabled' } {
  const update: Record<string, unknown> & { status: 'enabled' | 'disabled' } = { status: calling.enumValue('status', ENABLED) };
  const visibility = calling.optionalEnum('call_icon_visibility', ['visible', 'hidden'] as const);
  if (visibility !== undefined) update.call_icon_visibility = visibility;
  const callback = calling.optionalEnum('callback_permission_status', ENABLED);
  if (callback !== undefined) update.callback_permission_status = callback;
  const srtp = calling.optionalEnum('srtp_key_exchange_protocol', ['DTLS-SRTP', 'SDES-SRTP'] as const);
  if (srtp !== undefined) update.srtp_key_exchange_protocol = srtp;
  // Sub-settings that are objects with a status switch (video, audio, sip, call hours, icons).
  for (const key of ['video', 'audio', 'sip', 'call_hours', 'call_icons']) {
    const nested = calling.optionalRecord(key);
    if (nested === undefined) continue;
    const value: Record<string, unknown> = {};
    for (const nestedKey of nested.keys()) value[nestedKey] = structuredClone(nested.raw(nestedKey));
    if (nested.has('status')) value.status = nested.enumValue('status', ENABLED);
    update[key] = value;
  }
  return update;
}

export const businessProfileRoutes: GraphRoute[] = [
  route('phone', 'GET', 'whatsapp_business_profile', getProfile),
  route('phone', 'POST', 'whatsapp_business_profile', updateProfile),
  route('phone', 'GET', 'settings', getSettings),
  route('phone', 'POST', 'settings', updateSettings),
];
