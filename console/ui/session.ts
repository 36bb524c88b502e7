/**
 * The organization's API key for this tab only: `sessionStorage` (gone when the tab closes, never
 * shared with other tabs), never `localStorage`, a cookie or a URL, and never logged. A person's
 * token is never here (ui/oidc.ts keeps it in memory); only which way this tab signed in, so a
 * reload signs the person in again instead of asking.
 */
const STORAGE_NAME = 'campaign-console.api-key';
const WAY_NAME = 'campaign-console.way';

export const session = {
  key: (): string | null => sessionStorage.getItem(STORAGE_NAME),
  signIn: (key: string): void => sessionStorage.setItem(STORAGE_NAME, key),
  signOut: (): void => sessionStorage.removeItem(STORAGE_NAME),
  /** This tab signed in as a person (no token: the word `person`), until sign-out. */
  personChosen: (): boolean => sessionStorage.getItem(WAY_NAME) === 'person',
  choosePerson: (chosen: boolean): void => (chosen ? sessionStorage.setItem(WAY_NAME, 'person') : sessionStorage.removeItem(WAY_NAME)),
};
