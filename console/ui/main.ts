/**
 * The campaign console (docs/CONSOLE.md): sign-in (a person at the identity provider, or an API
 * key), then hash-routed pages over the public broadcast API of this origin. Bundled with Chart.js
 * by esbuild (runtime-contract/browser-assets.ts).
 */
import { configureApi, describeError, readMe } from './api';
import { renderApiKeys } from './api-keys-page';
import { renderAuditLog } from './audit-log-page';
import { renderAudienceCampaign } from './audience-campaign-page';
import { renderAudience } from './audience-page';
import { renderAudiences } from './audiences-page';
import { renderCampaignBuilder } from './campaign-builder';
import { renderCampaign } from './campaign-page';
import { renderCampaignList } from './campaigns-list-page';
import { el, notice, replaceChildren } from './dom';
import { watchIdle, type IdleWatch } from './idle';
import { renderList } from './list-page';
import type { SignOutReason } from '../model/oidc-flow';
import { completePersonSignIn, endPersonSession, forgetPerson, personToken, readSignInSettings, startPersonSignIn, type SignInSettings } from './oidc';
import { renderPeople } from './people-page';
import { routeOf, type PageHandle } from './router';
import { session } from './session';
import { renderSettings } from './settings-page';
import { renderSignIn } from './sign-in';
import { signedInBar } from './signed-in-bar';
import { who } from './who';
import { renderTemplates } from './templates-page';

const main = document.getElementById('main') as HTMLElement;
const sessionBox = document.getElementById('session') as HTMLElement;
let page: PageHandle | undefined;
let settings: SignInSettings | undefined;
let idle: IdleWatch | undefined;

function leaveSession(): void {
  page?.leave();
  page = undefined;
  idle?.stop();
  idle = undefined;
  who.set(undefined);
  replaceChildren(sessionBox);
}

function showSignIn(reason?: string): void {
  leaveSession();
  const person = settings;
  renderSignIn(main, reason, {
    person: person
      ? async () => {
          // Before leaving for the provider: a reload after this signs the person in again.
          session.choosePerson(true);
          await startPersonSignIn(person).catch((error: unknown) => {
            session.choosePerson(false);
            throw error;
          });
        }
      : undefined,
    keySignedIn: () => void signedIn(),
  });
}

const signedOutWords = (why: SignOutReason): string =>
  why === 'idle' ? `Signed out after ${settings?.idleMinutes ?? 30} minutes without use.` : 'Signed out.';

/** Signs out; a person also at the provider, whose end-session page returns here with the reason. */
function signOut(why: SignOutReason = 'signed-out'): void {
  const reason = signedOutWords(why);
  const wasPerson = !!personToken();
  session.signOut();
  session.choosePerson(false);
  leaveSession();
  if (wasPerson && settings) {
    replaceChildren(main, el('p', {}, 'Signing out…'));
    void endPersonSession(settings, why).then((left) => left || showSignIn(reason));
    return;
  }
  forgetPerson();
  showSignIn(reason);
}

/** After a sign-in (or a reload with a key): who is signed in, then the page. */
async function signedIn(): Promise<void> {
  try {
    who.set(await readMe());
  } catch (error) {
    // readMe's refusal already signed out; anything else is said on the sign-in screen.
    if (personToken() || session.key()) showSignIn(describeError(error));
    return;
  }
  if (personToken() && settings) idle ??= watchIdle(settings.idleMinutes, () => signOut('idle'));
  route();
}

function route(): void {
  page?.leave();
  page = undefined;
  if (!personToken() && !session.key()) {
    showSignIn();
    return;
  }
  replaceChildren(
    sessionBox,
    signedInBar(who.me(), () => signOut()),
  );
  const target = routeOf(window.location.hash);
  if ((target.page === 'people' || target.page === 'audit-log' || target.page === 'api-keys') && !who.admin()) {
    replaceChildren(main, el('h2', { tabindex: -1 }, 'Not available'), notice('Only an admin sees people, API keys and the audit log.', 'info'));
  } else if (target.page === 'people') page = renderPeople(main);
  else if (target.page === 'api-keys') page = renderApiKeys(main);
  else if (target.page === 'audit-log') page = renderAuditLog(main);
  else if (target.page === 'campaign') page = renderCampaign(main, target.jobId);
  else if (target.page === 'audience-campaign') page = renderAudienceCampaign(main, target.campaignId);
  else if (target.page === 'campaign-list') page = renderCampaignList(main);
  else if (target.page === 'audiences') page = renderAudiences(main);
  else if (target.page === 'audience') page = renderAudience(main, target.audienceId);
  else if (target.page === 'templates') page = renderTemplates(main);
  else if (target.page === 'campaign-new') page = renderCampaignBuilder(main);
  else if (target.page === 'settings') page = renderSettings(main);
  else page = renderList(main);
}

async function boot(): Promise<void> {
  const assetsBase = document.querySelector<HTMLMetaElement>('meta[name="console-assets"]')?.content ?? '';
  settings = await readSignInSettings(assetsBase);
  if (settings) {
    try {
      const returned = await completePersonSignIn(settings);
      // Awaited inside the try: a failure while showing the signed-in console shows the sign-in page with its reason.
      if (returned === 'signed-in') return await signedIn();
      if (returned !== 'none') return showSignIn(signedOutWords(returned));
    } catch (error) {
      session.choosePerson(false);
      return showSignIn(describeError(error));
    }
    if (session.personChosen()) {
      // A reload forgot the token: the provider's session makes this one redirect.
      replaceChildren(main, el('p', {}, 'Signing you in…'));
      return startPersonSignIn(settings).catch((error: unknown) => {
        session.choosePerson(false);
        showSignIn(describeError(error));
      });
    }
  }
  if (session.key()) return signedIn();
  showSignIn();
}

const apiBase = document.querySelector<HTMLMetaElement>('meta[name="console-api-base"]')?.content ?? '';
configureApi(apiBase, (reason) => {
  session.choosePerson(false);
  showSignIn(reason);
});
window.addEventListener('hashchange', route);
void boot();
