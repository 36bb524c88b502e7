/**
 * What the Graph API changes about an account after registration: created templates and their
 * edit history, per-number settings, uploaded media, flows, webhook subscriptions.
 *
 * It all hangs off the StoredAccount, so registering an account again (an upsert, as on every
 * boot of the local runtime) starts it from exactly what was registered, and nothing of a
 * replaced account lingers.
 */
import type { MarketingMessagesOnboardingStatus, SandboxPhoneNumber } from './sandbox-types';

export interface TemplateInfo {
  createdAt: number;
  /** Edits made while APPROVED: Meta allows one per 24 hours and ten per 30 days. */
  approvedEdits: number[];
  /** Set for templates created from the Template Library; Meta reports it on the template. */
  libraryTemplateName?: string;
  parameterFormat?: 'POSITIONAL' | 'NAMED';
  messageSendTtlSeconds?: number;
  /** Meta's `quality_score.score` (GREEN, YELLOW, RED, UNKNOWN); absent: UNKNOWN, as new templates start. */
  qualityScore?: TemplateQualityScore;
  /** Set through the control API: sends answer `held_for_quality_assessment` and are held this long. */
  pacing?: { holdMs: number };
}

export const TEMPLATE_QUALITY_SCORES = ['GREEN', 'YELLOW', 'RED', 'UNKNOWN'] as const;
export type TemplateQualityScore = (typeof TEMPLATE_QUALITY_SCORES)[number];

export interface BusinessProfile {
  about?: string;
  address?: string;
  description?: string;
  email?: string;
  /** The upload handle last set; the picture URL is derived from it. */
  profilePictureHandle?: string;
  websites?: string[];
  vertical?: string;
}

/** `GET /{phone-number-id}/settings` shape, kept as Meta names it so it renders as is. */
export interface PhoneSettings {
  calling: Record<string, unknown> & { status: 'enabled' | 'disabled' };
  payload_encryption: Record<string, unknown> & { status: 'enabled' | 'disabled' };
  storage_configuration: { status: 'default' | 'in_country_storage_enabled'; data_localization_region?: string };
  user_identity_change: { enabled: boolean };
}

export interface ConversationalAutomation {
  enable_welcome_message: boolean;
  prompts: string[];
  commands: Array<{ command_name: string; command_description: string }>;
}

export interface QrCode {
  code: string;
  prefilledMessage: string;
  /** Unix seconds, as Meta's `creation_time`. */
  createdAt: number;
}

/** Settings written through `POST /{phone-number-id}` other than the two-step PIN. */
export interface PhoneConfiguration {
  webhookConfiguration?: { override_callback_uri: string; verify_token?: string };
  newDisplayName?: string;
  searchVisibility?: 'VISIBLE' | 'HIDDEN';
  showSecurityNotifications?: boolean;
  notifyUserChangeNumber?: boolean;
}

export type SmbSyncType = 'smb_app_state_sync' | 'history';

export interface PhoneState {
  number: SandboxPhoneNumber;
  /** When the number joined the sandbox: coexistence syncs are only possible in the next 24 hours. */
  onboardedAt: number;
  /** Registered numbers can send; `POST /deregister` turns that off until `POST /register`. */
  registered: boolean;
  /** The two-step verification PIN, once one was set by registration or `POST /{phone-number-id}`. */
  twoStepPin?: string;
  /** Times of register/deregister calls: Meta allows 10 per number in 72 hours. */
  registrationCalls: number[];
  profile: BusinessProfile;
  settings: PhoneSettings;
  automation: ConversationalAutomation;
  configuration: PhoneConfiguration;
  qrCodes: Map<string, QrCode>;
  /** wa_id → the input it was blocked as, in blocking order. */
  blockedUsers: Map<string, string>;
  /** Coexistence syncs already requested (each may be requested once) → request id. */
  smbSyncs: Map<SmbSyncType, string>;
  /** Another app holds the number's conversations (control API, thread-standby.ts): inbound on `standby`, free-form sends 131070. */
  standby?: boolean;
}

export interface StoredMedia {
  id: string;
  phoneNumberId: string;
  mimeType: string;
  data: Buffer;
  /** Hex SHA-256 of the bytes, as Meta reports it. */
  sha256: string;
  fileName?: string;
  uploadedAt: number;
}

export interface FlowValidationError {
  error: string;
  error_type: string;
  message: string;
  line_start: number;
  line_end: number;
  column_start: number;
  column_end: number;
  pointers?: Array<{ line_start: number; line_end: number; column_start: number; column_end: number; path: string }>;
}

export type FlowStatus = 'DRAFT' | 'PUBLISHED' | 'DEPRECATED';

export interface StoredFlow {
  id: string;
  name: string;
  categories: string[];
  status: FlowStatus;
  /** The uploaded flow.json text, as uploaded. */
  flowJson?: string;
  jsonVersion?: string;
  dataApiVersion?: string;
  endpointUri?: string;
  validationErrors: FlowValidationError[];
  createdAt: number;
  updatedAt: number;
}

/** The account's Marketing Messages API state (marketing-messages.ts reads it per send). */
export interface MarketingMessagesState {
  onboardingStatus: MarketingMessagesOnboardingStatus;
  /** `disable_marketing_messages_on_cloud_api`, set with `POST /{waba-id}`; default false. */
  disableOnCloudApi: boolean;
  /** Template ids the MM API answers 134101 for ("still syncing"), set through the control API. */
  syncingTemplates: Set<string>;
}

/** Settings written through `POST /{waba-id}`; the registered values until then. */
export interface WabaConfiguration {
  timezoneId?: string;
}

export interface AppSubscription {
  appId: string;
  appName: string;
  overrideCallbackUri?: string;
}

/** WhatsApp's own text for a profile whose business never wrote one: a new number reads it, as on a phone. */
export const defaultAbout = 'Hey there! I am using WhatsApp.';

export function newPhoneState(number: SandboxPhoneNumber, onboardedAt: number): PhoneState {
  return {
    number,
    onboardedAt,
    registered: true,
    registrationCalls: [],
    profile: { about: defaultAbout, vertical: 'OTHER', websites: [] },
    settings: {
      calling: { status: 'disabled', call_icon_visibility: 'visible', callback_permission_status: 'disabled' },
      payload_encryption: { status: 'disabled' },
      storage_configuration: { status: 'default' },
      user_identity_change: { enabled: false },
    },
    automation: { enable_welcome_message: false, prompts: [], commands: [] },
    configuration: {},
    qrCodes: new Map(),
    blockedUsers: new Map(),
    smbSyncs: new Map(),
  };
}
