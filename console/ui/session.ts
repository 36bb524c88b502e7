/**
 * The organization's API key for this tab only: `sessionStorage` (gone when the tab closes, never
 * shared with other tabs), never `localStorage`, a cookie or a URL, and never logged.
 */
const STORAGE_NAME = 'campaign-console.api-key';

export const session = {
  key: (): string | null => sessionStorage.getItem(STORAGE_NAME),
  signIn: (key: string): void => sessionStorage.setItem(STORAGE_NAME, key),
  signOut: (): void => sessionStorage.removeItem(STORAGE_NAME),
};
