/**
 * Signing in to the campaign console in a browser suite (docs/CONSOLE.md "Signing in as a person").
 *
 * `signInAsPerson` goes the person's way: the console's "Sign in", the identity provider's own
 * sign-in page (fields labelled "Email" and "Password", a "Sign in" button: the local provider's
 * page, and the suites' test provider's), back to the console, until the header says who is
 * signed in. `signInWithApiKey` goes the developers' way ("Use an API key" when the service offers
 * people a sign-in; the key form directly when it does not).
 */
import type { Page } from 'playwright-core';

export interface PersonSignIn {
  /** The local gateway's base URL (`runtime.baseUrl`). */
  baseUrl: string;
  email: string;
  password: string;
  /** The console's hash route to open (`#/people`); the broadcast list by default. */
  hash?: string;
}

/** The console's page address under `baseUrl` (the local gateway's short alias). */
export const consoleAddress = (baseUrl: string, hash = ''): string => `${baseUrl}/console/${hash}`;

/** Signs in as a person through the identity provider's page; resolves once the console shows who is signed in. */
export async function signInAsPerson(page: Page, { baseUrl, email, password, hash }: PersonSignIn): Promise<void> {
  await page.goto(consoleAddress(baseUrl, hash));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.href.startsWith(baseUrl) && !url.searchParams.has('code'));
  await page.locator('.signed-in .who').waitFor();
}

/** Signs in with the organization's API key; resolves once the broadcast list (or `hash`'s page) is asked for. */
export async function signInWithApiKey(page: Page, { baseUrl, key, hash }: { baseUrl: string; key: string; hash?: string }): Promise<void> {
  await page.goto(consoleAddress(baseUrl, hash));
  const useKey = page.getByRole('button', { name: 'Use an API key' });
  const keyField = page.getByLabel('Organization API key');
  await useKey.or(keyField).first().waitFor();
  if (await useKey.isVisible()) await useKey.click();
  await keyField.fill(key);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.locator('.sign-out').waitFor();
}
