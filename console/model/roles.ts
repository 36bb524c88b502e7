/**
 * Who is signed in and what the console shows them (docs/CONSOLE.md "Roles"). The API enforces
 * the roles (runtime-contract/person-access.ts, imported here: the console hides exactly what the
 * API would refuse, from the same table); a control hidden here would be refused there anyway.
 */
import { personAccess } from '../../runtime-contract/person-access';
import { isPersonRole, roleAllows, type PersonRole } from '../../shared/people/person-role';

/** `GET /me`'s `data` (docs/PEOPLE.md). */
export interface Me {
  organizationId: string;
  actor: 'person' | 'api-key';
  role: PersonRole;
  personId?: string;
  email?: string;
  credentialId?: string;
}

/**
 * The controls the console shows by what they call: the table's operations. The admin screens'
 * operations are the people and audit routes (person role `admin` by the rules; an API key of the
 * organization reads as `admin` in `GET /me`).
 */
export const controlOperations = {
  createCampaign: 'createCampaign',
  launchCampaign: 'launchCampaign',
  pauseCampaign: 'pauseCampaign',
  resumeCampaign: 'resumeCampaign',
  cancelCampaign: 'cancelCampaign',
  campaignFollowUp: 'campaignFollowUp',
  pauseJob: 'pauseJob',
  resumeJob: 'resumeJob',
  cancelJob: 'cancelJob',
  followUp: 'followUp',
  createAudience: 'createAudience',
  deleteAudience: 'deleteAudience',
  upsertMembers: 'upsertMembers',
  removeMembers: 'removeMembers',
} as const;

export type Control = keyof typeof controlOperations;

/**
 * Whether the signed-in caller may use a control. Unknown caller (an older service without
 * `GET /me`): shown, the API decides. A person needs the table's least role; an operation the
 * table leaves to API keys is hidden from people. An API key holds its `GET /me` role for the
 * table's operations and may call the rest.
 *
 * @example
 * mayUse({ actor: 'person', role: 'viewer', organizationId: 'o' }, 'pauseCampaign'); // false
 * mayUse({ actor: 'person', role: 'campaign-manager', organizationId: 'o' }, 'pauseCampaign'); // true
 */
export const mayUse = (me: Me | undefined, control: Control): boolean => mayCall(me, controlOperations[control]);

/**
 * Whether the caller may call an operation of the table (the rule `mayUse` applies to a control).
 *
 * @example
 * mayCall({ actor: 'person', role: 'viewer', organizationId: 'o' }, 'launchCampaign'); // false
 */
export function mayCall(me: Me | undefined, operation: string): boolean {
  if (!me) return true;
  const needed = personAccess[operation];
  if (!needed) return me.actor === 'api-key';
  return roleAllows(me.role, needed);
}

/**
 * The contact policy's operations (docs/CAMPAIGNS.md "Frequency caps"): everyone reads it, an
 * admin sets or removes it. Apart from `controlOperations` (the campaign controls a campaign manager uses).
 */
export const contactPolicyOperations = { read: 'getContactPolicy', set: 'setContactPolicy', remove: 'removeContactPolicy' } as const;

/**
 * Whether the admin screens (people, audit log) are shown: the `admin` role, a person's or an
 * organization key's. Unknown caller: hidden (they only list what an admin may read).
 *
 * @example
 * showsAdminScreens({ actor: 'person', role: 'admin', organizationId: 'o' }); // true
 * showsAdminScreens({ actor: 'api-key', role: 'campaign-manager', organizationId: 'o' }); // false
 */
export const showsAdminScreens = (me: Me | undefined): boolean => !!me && roleAllows(me.role, 'admin');

/**
 * A `GET /me` answer's `data`, undefined when it is not one.
 *
 * @example
 * meOf({ organizationId: 'o', actor: 'person', role: 'viewer', email: 'v@x' })?.role; // 'viewer'
 * meOf({ actor: 'robot' }); // undefined
 */
export function meOf(data: unknown): Me | undefined {
  const value = data as Partial<Me> | null;
  if (!value || typeof value.organizationId !== 'string' || (value.actor !== 'person' && value.actor !== 'api-key') || !isPersonRole(value.role))
    return undefined;
  return value as Me;
}

const ROLE_WORDS: Record<PersonRole, string> = { viewer: 'Viewer', 'campaign-manager': 'Campaign manager', admin: 'Admin' };

/**
 * A role in words.
 *
 * @example
 * roleWords('campaign-manager'); // 'Campaign manager'
 */
export const roleWords = (role: PersonRole): string => ROLE_WORDS[role];

/**
 * Who is signed in, as the header says it.
 *
 * @example
 * signedInAs({ actor: 'person', email: 'ana@example.com', role: 'admin', organizationId: 'o' }); // 'ana@example.com (Admin)'
 * signedInAs({ actor: 'api-key', role: 'admin', organizationId: 'o' }); // 'API key (Admin)'
 */
export const signedInAs = (me: Me): string => `${me.actor === 'person' ? (me.email ?? me.personId ?? 'Person') : 'API key'} (${roleWords(me.role)})`;
