/**
 * The business accounts the sandbox serves, indexed for the lookups every Graph request makes:
 * object id → owning account, access token → known, (name, language) → template.
 *
 * Graph ids share one namespace, so a WABA, phone number or template id may belong to only one
 * object; registering a clash is rejected (409) instead of silently rerouting traffic.
 */
import { isTemplateStatus, parseBusinessAccount } from './account-validation';
import { expectedTemplateParams, type ExpectedTemplateParams } from './message-validation';
import { SandboxRequestError } from './sandbox-request-error';
import { TEMPLATE_STATUSES, type SandboxBusinessAccount, type SandboxPhoneNumber, type SandboxTemplate } from './sandbox-types';

export interface StoredTemplate {
  template: SandboxTemplate;
  /** Computed once at registration, not per send. */
  expectedParams: ExpectedTemplateParams;
}

export interface StoredAccount {
  account: SandboxBusinessAccount;
  templatesByNameAndLanguage: Map<string, StoredTemplate>;
}

export type GraphNode =
  | { kind: 'waba'; owner: StoredAccount }
  | { kind: 'phone'; owner: StoredAccount; phone: SandboxPhoneNumber }
  | { kind: 'template'; owner: StoredAccount; stored: StoredTemplate };

/** Account as listed by `GET /_sandbox/accounts`: everything but the token. */
export type PublicBusinessAccount = Omit<SandboxBusinessAccount, 'accessToken'>;

function templateKey(name: string, language: string): string {
  return `${name}\u0000${language}`;
}

export class SandboxState {
  private readonly accounts = new Map<string, StoredAccount>();
  private readonly nodes = new Map<string, GraphNode>();
  private readonly tokenUseCount = new Map<string, number>();

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

    const stored: StoredAccount = { account, templatesByNameAndLanguage: new Map() };
    this.accounts.set(account.wabaId, stored);
    this.nodes.set(account.wabaId, { kind: 'waba', owner: stored });
    for (const phone of account.phoneNumbers) this.nodes.set(phone.id, { kind: 'phone', owner: stored, phone });
    for (const template of account.templates) {
      const entry: StoredTemplate = { template, expectedParams: expectedTemplateParams(template.components) };
      stored.templatesByNameAndLanguage.set(templateKey(template.name, template.language), entry);
      this.nodes.set(template.id, { kind: 'template', owner: stored, stored: entry });
    }
    this.tokenUseCount.set(account.accessToken, (this.tokenUseCount.get(account.accessToken) ?? 0) + 1);
  }

  private unindex(stored: StoredAccount): void {
    const { account } = stored;
    this.nodes.delete(account.wabaId);
    for (const phone of account.phoneNumbers) this.nodes.delete(phone.id);
    for (const template of account.templates) this.nodes.delete(template.id);
    const uses = (this.tokenUseCount.get(account.accessToken) ?? 1) - 1;
    if (uses <= 0) this.tokenUseCount.delete(account.accessToken);
    else this.tokenUseCount.set(account.accessToken, uses);
  }

  isKnownToken(token: string): boolean {
    return this.tokenUseCount.has(token);
  }

  node(id: string): GraphNode | undefined {
    return this.nodes.get(id);
  }

  findTemplate(owner: StoredAccount, name: string, language: string): StoredTemplate | undefined {
    return owner.templatesByNameAndLanguage.get(templateKey(name, language));
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

  listAccounts(): PublicBusinessAccount[] {
    return [...this.accounts.values()].map(({ account }) => {
      const { accessToken: _token, ...rest } = structuredClone(account);
      return rest;
    });
  }
}
