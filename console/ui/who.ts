/**
 * Who is signed in (`GET /me`, read after each sign-in) and what the pages may show them
 * (console/model/roles.ts). Pages ask `allows(control)` when they build their buttons.
 */
import { mayUse, showsAdminScreens, type Control, type Me } from '../model/roles';

let current: Me | undefined;

export const who = {
  me: (): Me | undefined => current,
  set: (me: Me | undefined): void => {
    current = me;
  },
  allows: (control: Control): boolean => mayUse(current, control),
  admin: (): boolean => showsAdminScreens(current),
};
