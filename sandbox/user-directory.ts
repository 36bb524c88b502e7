/**
 * The WhatsApp users the sandbox knows: their BSUIDs per business portfolio, usernames, whether
 * their number is withheld from webhooks, users known only by BSUID, and parent BSUID accounts
 * (../shared/meta/usernames-and-bsuid.md). Configured through `POST /_sandbox/users` and
 * `POST /_sandbox/parent-bsuid-accounts`; every number the sandbox sends to or hears from is
 * remembered too, so a BSUID seen in a webhook can be sent to later.
 */
import { fail, isRecord, recipientKey, type Json } from './control-values';
import { GraphError, invalidParameter } from './graph-errors';
import { belongsTo, bsuidOf, bsuidWithoutPhone, parentBsuidOf, parseBsuid } from './user-identity';

/** Meta's 30-day rule (§3): a number this business number exchanged messages with stays visible. */
const CONTACT_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
const USERNAME_PATTERN = /^(?=.*[a-z])(?!\.)(?!.*\.\.)(?!.*\.$)[a-z0-9._]{3,35}$/;

export interface SandboxUser {
  /** Digits; absent for a user known only by BSUID. */
  phone?: string;
  username?: string;
  profileName?: string;
  /** The number is left out of webhooks unless Meta's 30-day rule shows it; default: has a username. */
  phoneWithheld: boolean;
  /** A user without a number exists under one portfolio only, with this id. */
  businessId?: string;
  userId?: string;
}

/** Who a send or an inbound message is about, as seen from one business portfolio. */
export interface Addressee {
  addressedBy: 'phone' | 'bsuid';
  /** The `to` or `recipient` as sent. */
  input: string;
  phone?: string;
  userId: string;
  parentUserId?: string;
  username?: string;
  profileName?: string;
  phoneWithheld: boolean;
}

function optionalText(body: Json, key: string): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') fail(`${key} must be a non-empty string`);
  return value;
}

function parseUser(body: unknown): SandboxUser {
  if (!isRecord(body)) fail('user must be a JSON object');
  const phoneText = optionalText(body, 'phone');
  const phone = phoneText === undefined ? undefined : recipientKey(phoneText);
  if (phone !== undefined && !/^\d{7,15}$/.test(phone)) fail('phone must be a phone number of 7 to 15 digits');
  const username = optionalText(body, 'username');
  if (username !== undefined && !USERNAME_PATTERN.test(username))
    fail('username must be 3-35 of a-z, 0-9, "." and "_" with a letter, no leading, trailing or double "."');
  const withheld = body.phoneWithheld ?? username !== undefined;
  if (typeof withheld !== 'boolean') fail('phoneWithheld must be a boolean');
  const profileName = optionalText(body, 'profileName');
  const user: SandboxUser = {
    phoneWithheld: withheld,
    ...(phone === undefined ? {} : { phone }),
    ...(username === undefined ? {} : { username }),
    ...(profileName === undefined ? {} : { profileName }),
  };
  if (phone !== undefined) return user;
  const businessId = optionalText(body, 'businessId') ?? fail('a user without phone needs businessId (the portfolio its BSUID belongs to)');
  const country = optionalText(body, 'country') ?? 'US';
  if (!/^[A-Z]{2}$/.test(country)) fail('country must be an ISO 3166 alpha-2 code');
  return { ...user, phoneWithheld: true, businessId, userId: bsuidWithoutPhone(businessId, username ?? profileName ?? 'user', country) };
}

export class UserDirectory {
  private readonly byPhoneNumber = new Map<string, SandboxUser>();
  private readonly phoneless = new Map<string, SandboxUser>();
  /** Numbers sent to or heard from, in order: candidates when a BSUID comes back. */
  private readonly seenPhones = new Set<string>();
  private readonly seenList: string[] = [];
  /** `${scope}|${bsuid}` → phone, filled lazily: how far `seenList` is indexed per scope. */
  private readonly reverse = new Map<string, string>();
  private readonly indexed = new Map<string, number>();
  /** Parent BSUID account id → enrolled business portfolios. */
  private readonly parents = new Map<string, Set<string>>();
  /** `${phoneNumberId}|${phone}` → last exchange with that number. */
  private readonly contacts = new Map<string, number>();

  /** `POST /_sandbox/users`: adds or replaces a user (by phone, or by portfolio + username). */
  register(body: unknown): SandboxUser {
    const user = parseUser(body);
    if (user.phone !== undefined) {
      this.byPhoneNumber.set(user.phone, user);
      this.remember(user.phone);
    } else this.phoneless.set(user.userId!, user);
    return user;
  }

  /** `POST /_sandbox/parent-bsuid-accounts`: `{ id, businessIds }` enrolls portfolios in one parent account. */
  registerParentAccount(body: unknown): { id: string; businessIds: string[] } {
    if (!isRecord(body)) fail('parent BSUID account must be a JSON object');
    const id = optionalText(body, 'id') ?? fail('id must be a non-empty string');
    const ids = body.businessIds;
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((value) => typeof value === 'string' && value !== ''))
      fail('businessIds must be a non-empty array of strings');
    this.parents.set(id, new Set(ids as string[]));
    return { id, businessIds: [...(ids as string[])] };
  }

  /** Users as configured, with each phone user's BSUID under the given portfolios. */
  list(businessIds: string[]): Array<SandboxUser & { userIds?: Record<string, string> }> {
    const withIds = [...this.byPhoneNumber.values()].map((user) => ({
      ...user,
      userIds: Object.fromEntries(businessIds.map((id) => [id, bsuidOf(id, user.phone!)])),
    }));
    return [...withIds, ...this.phoneless.values()];
  }

  clear(): void {
    for (const map of [this.byPhoneNumber, this.phoneless, this.reverse, this.parents, this.contacts]) map.clear();
    this.seenPhones.clear();
    this.seenList.length = 0;
    this.indexed.clear();
  }

  /** A send's `to` (digits) from a business of this portfolio. */
  byPhone(businessId: string, input: string, phone: string): Addressee {
    this.remember(phone);
    const user = this.byPhoneNumber.get(phone);
    const parent = this.parentOf(businessId);
    return {
      addressedBy: 'phone',
      input,
      phone,
      userId: bsuidOf(businessId, phone),
      ...(parent === undefined ? {} : { parentUserId: parentBsuidOf(parent, phone) }),
      ...this.profileOf(user),
    };
  }

  /**
   * A send's `recipient`: a BSUID of this portfolio or a parent BSUID of its parent account.
   * Meta refuses ids of another portfolio but documents no code; the sandbox answers 100.
   */
  byBsuid(businessId: string, recipient: string): Addressee {
    const parsed = parseBsuid(recipient);
    if (parsed === undefined) throw invalidParameter('Param recipient must be a business-scoped user ID (country code, ".", up to 128 letters and digits).');
    const parent = this.parentOf(businessId);
    const scope = parsed.parent ? parent : businessId;
    if (scope === undefined || !belongsTo(recipient, scope)) {
      throw invalidParameter(`Param recipient is not a business-scoped user ID of the business portfolio ${businessId}.`);
    }
    const phone = this.phoneOf(scope, recipient, parsed.parent);
    if (phone !== undefined) return { ...this.byPhone(businessId, recipient, phone), addressedBy: 'bsuid' };
    const user = this.phoneless.get(recipient);
    // A parent BSUID whose number the sandbox never saw still needs a portfolio BSUID for webhooks.
    const ids = parsed.parent ? { userId: bsuidWithoutPhone(businessId, recipient, parsed.country), parentUserId: recipient } : { userId: recipient };
    return { addressedBy: 'bsuid', input: recipient, ...ids, ...this.profileOf(user), phoneWithheld: true };
  }

  /** The sender of an inbound message to a business of this portfolio. */
  sender(businessId: string, from: { phone?: string; userId?: string }): Addressee {
    if (from.phone !== undefined) return this.byPhone(businessId, from.phone, from.phone);
    const userId = from.userId ?? fail('from or fromUserId is required');
    try {
      return this.byBsuid(businessId, userId);
    } catch (error) {
      // The control API answers its own 400s, not Graph errors.
      if (error instanceof GraphError) fail(`fromUserId ${userId} is not a BSUID of the business portfolio ${businessId}`);
      throw error;
    }
  }

  /** A message went to, or came from, the number (Meta's 30-day rule counts both). */
  noteContact(phoneNumberId: string, phone: string, at: number): void {
    this.contacts.set(`${phoneNumberId}|${phone}`, at);
  }

  /**
   * Whether webhooks of this business number may carry the user's number (§3): always for a user
   * without a withheld number, otherwise only after an exchange with that number in 30 days.
   */
  phoneVisible(phoneNumberId: string, addressee: Addressee, at: number): boolean {
    if (addressee.phone === undefined) return false;
    if (!addressee.phoneWithheld) return true;
    const last = this.contacts.get(`${phoneNumberId}|${addressee.phone}`);
    return last !== undefined && at - last <= CONTACT_WINDOW_MS;
  }

  private profileOf(user: SandboxUser | undefined): Pick<Addressee, 'username' | 'profileName' | 'phoneWithheld'> {
    if (user === undefined) return { phoneWithheld: false };
    return {
      phoneWithheld: user.phoneWithheld,
      ...(user.username === undefined ? {} : { username: user.username }),
      ...(user.profileName === undefined ? {} : { profileName: user.profileName }),
    };
  }

  private parentOf(businessId: string): string | undefined {
    for (const [id, members] of this.parents) if (members.has(businessId)) return id;
    return undefined;
  }

  private remember(phone: string): void {
    if (this.seenPhones.has(phone)) return;
    this.seenPhones.add(phone);
    this.seenList.push(phone);
  }

  /** Indexes only the numbers seen since this scope's last lookup. */
  private phoneOf(scope: string, id: string, parent: boolean): string | undefined {
    const scopeKey = `${parent ? 'parent' : 'business'}:${scope}`;
    for (let index = this.indexed.get(scopeKey) ?? 0; index < this.seenList.length; index += 1) {
      const phone = this.seenList[index]!;
      this.reverse.set(`${scopeKey}|${parent ? parentBsuidOf(scope, phone) : bsuidOf(scope, phone)}`, phone);
    }
    this.indexed.set(scopeKey, this.seenList.length);
    return this.reverse.get(`${scopeKey}|${id}`);
  }
}
