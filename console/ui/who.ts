/**
 * Who is signed in (`GET /me`, read after each sign-in) and what the pages may show them
 * (console/model/roles.ts). Pages ask `allows(control)` when they build their buttons.
 */
import { mayCall, mayUse, showsAdminScreens, type Control, type Me } from '../model/roles';

let current: Me | undefined;

export const who = {
  me: (): Me | undefined => current,
  set: (me: Me | undefined): void => {
    current = me;
  },
  allows: (control: Control): boolean => mayUse(current, control),
  /** An operation outside the campaign controls (the contact policy's). */
  mayCall: (operation: string): boolean => mayCall(current, operation),
  admin: (): boolean => showsAdminScreens(current),
};
