/**
 * The business accounts the sandbox serves, indexed for the lookups every Graph request makes:
 * object id → owning account, access token → known, (name, language) → template.
 *
 * Graph ids share one namespace, so a WABA, phone number, template, media or flow id may belong
 * to only one object; registering a clash is rejected (409) instead of silently rerouting
 * traffic, and ids the sandbox hands out skip every id in use.
 */
import {
  newPhoneState,
  type AppSubscription,
  type MarketingMessagesState,
  type PhoneState,
  type StoredFlow,
  type StoredMedia,
  type TemplateInfo,
  type WabaConfiguration,
} from './account-state';
import { isTemplateStatus, parseBusinessAccount } from './account-validation';
import { SandboxRequestError } from './sandbox-request-error';
import {
  MARKETING_MESSAGES_ONBOARDING_STATUSES,
  TEMPLATE_STATUSES,
  type MarketingMessagesOnboardingStatus,
  type SandboxBusinessAccount,
  type SandboxTemplate,
} from './sandbox-types';

export interface StoredTemplate {
  template: SandboxTemplate;
  info: TemplateInfo;
}

export interface StoredAccount {
  account: SandboxBusinessAccount;
  templatesByNameAndLanguage: Map<string, StoredTemplate>;
  /** name + language → deletion time; Meta keeps a deleted pair reserved for four weeks. */
  deletedTemplates: Map<string, number>;
  phones: Map<string, PhoneState>;
  media: Map<string, StoredMedia>;
  flows: Map<string, StoredFlow>;
  /** By app id. */
  subscriptions: Map<string, AppSubscription>;
  marketing: MarketingMessagesState;
  configuration: WabaConfiguration;
}

export type GraphNode =
  | { kind: 'waba'; owner: StoredAccount }
  | { kind: 'phone'; owner: StoredAccount; phone: PhoneState }
  | { kind: 'template'; owner: StoredAccount; stored: StoredTemplate }
  | { kind: 'media'; owner: StoredAccount; media: StoredMedia }
  | { kind: 'flow'; owner: StoredAccount; flow: StoredFlow };

export type NodeKind = GraphNode['kind'];

/** Account as listed by `GET /_sandbox/accounts`: everything but the token. */
export type PublicBusinessAccount = Omit<SandboxBusinessAccount, 'accessToken'>;

export function templateKey(name: string, language: string): string {
  return `${name}\u0000${language}`;
}

/**
 * Generated ids are 16 digits from here up: the shape of Meta's ids, and well clear of the short
 * ids fixtures tend to use. Below 2^53, so they survive a round trip through a JSON number.
 */
const FIRST_GENERATED_ID = 7_100_000_000_000_001;

export class SandboxState {
  private readonly accounts = new Map<string, StoredAccount>();
  private readonly nodes = new Map<string, GraphNode>();
  private readonly tokenUseCount = new Map<string, number>();
  private readonly expiredTokens = new Set<string>();
  private nextId = FIRST_GENERATED_ID;

  constructor(readonly now: () => number = Date.now) {}

  /** Idempotent upsert by wabaId; throws SandboxRequestError on an invalid account or id clash. */
  registerAccount(input: SandboxBusinessAccount): void {
    const account = parseBusinessAccount(input);
    const previous = this.accounts.get(account.wabaId);
    const ids = [account.wabaId, ...account.phoneNumbers.map((phone) => phone.id), ...account.templates.map((template) => template.id)];
    for (const id of ids) {
      const node = this.nodes.get(id);
      if (node !== undefined && node.owner !== previous) {
        throw new SandboxRequestError(409, `Graph id ${id} already belongs to WABA ${node.owner.account.wabaId}`);
      }
    }
    if (ids.length !== new Set(ids).size) throw new SandboxRequestError(409, 'an id is used twice within the account');
    if (previous !== undefined) this.unindex(previous);

    const stored: StoredAccount = {
      account,
      templatesByNameAndLanguage: new Map(),
      deletedTemplates: new Map(),
      phones: new Map(),
      media: new Map(),
      flows: new Map(),
      subscriptions: new Map(),
      marketing: { onboardingStatus: account.marketingMessagesOnboardingStatus ?? 'ELIGIBLE', disableOnCloudApi: false, syncingTemplates: new Set() },
      configuration: {},
    };
    this.accounts.set(account.wabaId, stored);
    this.nodes.set(account.wabaId, { kind: 'waba', owner: stored });
    const registeredAt = this.now();
    for (const number of account.phoneNumbers) {
      const phone = newPhoneState(number, registeredAt);
      stored.phones.set(number.id, phone);
      this.nodes.set(number.id, { kind: 'phone', owner: stored, phone });
    }
    for (const template of account.templates) {
      const format = template.parameterFormat === undefined ? {} : { parameterFormat: template.parameterFormat };
      this.indexTemplate(stored, template, { createdAt: registeredAt, approvedEdits: [], ...format });
    }
    this.tokenUseCount.set(account.accessToken, (this.tokenUseCount.get(account.accessToken) ?? 0) + 1);
    // Registering declares a working account: a token marked expired is good again.
    this.expiredTokens.delete(account.accessToken);
  }

  private unindex(stored: StoredAccount): void {
    const { account } = stored;
    this.nodes.delete(account.wabaId);
    for (const id of stored.phones.keys()) this.nodes.delete(id);
    for (const template of account.templates) this.nodes.delete(template.id);
    for (const id of stored.media.keys()) this.nodes.delete(id);
    for (const id of stored.flows.keys()) this.nodes.delete(id);
    const uses = (this.tokenUseCount.get(account.accessToken) ?? 1) - 1;
    if (uses <= 0) this.tokenUseCount.delete(account.accessToken);
    else this.tokenUseCount.set(account.accessToken, uses);
  }

  isKnownToken(token: string): boolean {
    return this.tokenUseCount.has(token);
  }

  isExpiredToken(token: string): boolean {
    return this.expiredTokens.has(token);
  }

  /** Expiry belongs to the token, so accounts sharing one token expire together, as at Meta. */
  setTokenExpired(wabaId: string, expired: boolean): void {
    const stored = this.accounts.get(wabaId);
    if (stored === undefined) throw new SandboxRequestError(404, `no account with wabaId ${wabaId}`);
    if (expired) this.expiredTokens.add(stored.account.accessToken);
    else this.expiredTokens.delete(stored.account.accessToken);
  }

  clearExpiredTokens(): void {
    this.expiredTokens.clear();
  }

  /** The control API's stand-in for the business accepting (or not) the MM API terms. */
  setMarketingMessagesOnboarding(wabaId: string, status: unknown): MarketingMessagesOnboardingStatus {
    const stored = this.accounts.get(wabaId);
    if (stored === undefined) throw new SandboxRequestError(404, `no account with wabaId ${wabaId}`);
    if (!(MARKETING_MESSAGES_ONBOARDING_STATUSES as readonly unknown[]).includes(status)) {
      throw new SandboxRequestError(400, `onboardingStatus must be one of ${MARKETING_MESSAGES_ONBOARDING_STATUSES.join(', ')}`);
    }
    stored.marketing.onboardingStatus = status as MarketingMessagesOnboardingStatus;
    return stored.marketing.onboardingStatus;
  }

  /** While set, MM API sends of the template answer 134101 "still syncing". */
  setTemplateSyncing(templateId: string, syncing: boolean): void {
    const node = this.nodes.get(templateId);
    if (node?.kind !== 'template') throw new SandboxRequestError(404, `no template with id ${templateId}`);
    if (syncing) node.owner.marketing.syncingTemplates.add(templateId);
    else node.owner.marketing.syncingTemplates.delete(templateId);
  }

  /** Reset: onboarding back to what was registered, no template syncing (the Graph-set flag stays). */
  resetMarketingMessages(): void {
    for (const stored of this.accounts.values()) {
      stored.marketing.onboardingStatus = stored.account.marketingMessagesOnboardingStatus ?? 'ELIGIBLE';
      stored.marketing.syncingTemplates.clear();
    }
  }

  /** Puts a template under pacing (`holdMs`) or takes it out (undefined). */
  setTemplatePacing(templateId: string, holdMs: number | undefined): StoredTemplate {
    const node = this.nodes.get(templateId);
    if (node?.kind !== 'template') throw new SandboxRequestError(404, `no template with id ${templateId}`);
    if (holdMs === undefined) delete node.stored.info.pacing;
    else node.stored.info.pacing = { holdMs };
    return node.stored;
  }

  /** Reset: no template is under pacing any more. */
  clearTemplatePacing(): void {
    for (const stored of this.accounts.values()) for (const template of stored.templatesByNameAndLanguage.values()) delete template.info.pacing;
  }

  node(id: string): GraphNode | undefined {
    return this.nodes.get(id);
  }

  account(wabaId: string): StoredAccount | undefined {
    return this.accounts.get(wabaId);
  }

  /** A fresh Graph id no object uses. */
  allocateId(): string {
    let id = String(this.nextId);
    while (this.nodes.has(id)) {
      this.nextId += 1;
      id = String(this.nextId);
    }
    this.nextId += 1;
    return id;
  }

  findTemplate(owner: StoredAccount, name: string, language: string): StoredTemplate | undefined {
    return owner.templatesByNameAndLanguage.get(templateKey(name, language));
  }

  /** Adds a template created through Graph (or migration) to the account and the id index. */
  addTemplate(owner: StoredAccount, template: SandboxTemplate, info: TemplateInfo): StoredTemplate {
    owner.account.templates.push(template);
    owner.deletedTemplates.delete(templateKey(template.name, template.language));
    return this.indexTemplate(owner, template, info);
  }

  private indexTemplate(owner: StoredAccount, template: SandboxTemplate, info: TemplateInfo): StoredTemplate {
    const entry: StoredTemplate = { template, info };
    owner.templatesByNameAndLanguage.set(templateKey(template.name, template.language), entry);
    this.nodes.set(template.id, { kind: 'template', owner, stored: entry });
    return entry;
  }

  removeTemplate(owner: StoredAccount, stored: StoredTemplate): void {
    const { template } = stored;
    owner.account.templates = owner.account.templates.filter((candidate) => candidate !== template);
    owner.templatesByNameAndLanguage.delete(templateKey(template.name, template.language));
    owner.deletedTemplates.set(templateKey(template.name, template.language), this.now());
    this.nodes.delete(template.id);
  }

  /** What a send must supply is read from the components per send (template-send-spec.ts). */
  setTemplateComponents(stored: StoredTemplate, components: Array<Record<string, unknown>>): void {
    stored.template.components = components;
  }

  addMedia(owner: StoredAccount, media: StoredMedia): void {
    owner.media.set(media.id, media);
    this.nodes.set(media.id, { kind: 'media', owner, media });
  }

  removeMedia(owner: StoredAccount, media: StoredMedia): void {
    owner.media.delete(media.id);
    this.nodes.delete(media.id);
  }

  addFlow(owner: StoredAccount, flow: StoredFlow): void {
    owner.flows.set(flow.id, flow);
    this.nodes.set(flow.id, { kind: 'flow', owner, flow });
  }

  removeFlow(owner: StoredAccount, flow: StoredFlow): void {
    owner.flows.delete(flow.id);
    this.nodes.delete(flow.id);
  }

  /** `status` is checked here because HTTP and untyped callers reach it too. */
  setTemplateStatus(templateId: string, status: unknown): SandboxTemplate {
    if (!isTemplateStatus(status)) {
      throw new SandboxRequestError(400, `status must be one of ${TEMPLATE_STATUSES.join(', ')}`);
    }
    const node = this.nodes.get(templateId);
    if (node?.kind !== 'template') throw new SandboxRequestError(404, `no template with id ${templateId}`);
    node.stored.template.status = status;
    return node.stored.template;
  }

  allAccounts(): StoredAccount[] {
    return [...this.accounts.values()];
  }

  listAccounts(): PublicBusinessAccount[] {
    return [...this.accounts.values()].map(({ account }) => {
      const { accessToken: _token, ...rest } = structuredClone(account);
      return rest;
    });
  }
}
