/**
 * The campaign console (docs/CONSOLE.md): sign-in, then hash-routed pages over the public
 * broadcast API of this origin. Bundled with Chart.js by esbuild (runtime-contract/browser-assets.ts).
 */
import { configureApi } from './api';
import { renderAudienceCampaign } from './audience-campaign-page';
import { renderAudience } from './audience-page';
import { renderAudiences } from './audiences-page';
import { renderCampaignBuilder } from './campaign-builder';
import { renderCampaign } from './campaign-page';
import { renderCampaignList } from './campaigns-list-page';
import { el, replaceChildren } from './dom';
import { renderList } from './list-page';
import { routeOf, type PageHandle } from './router';
import { session } from './session';
import { renderSignIn } from './sign-in';
import { renderTemplates } from './templates-page';

const main = document.getElementById('main') as HTMLElement;
const sessionBox = document.getElementById('session') as HTMLElement;
let page: PageHandle | undefined;

function showSignIn(reason?: string): void {
  page?.leave();
  page = undefined;
  replaceChildren(sessionBox);
  renderSignIn(main, reason, () => route());
}

function signOut(): void {
  session.signOut();
  showSignIn('Signed out.');
}

function route(): void {
  page?.leave();
  if (!session.key()) {
    showSignIn();
    return;
  }
  replaceChildren(sessionBox, el('button', { type: 'button', class: 'sign-out', onclick: signOut }, 'Sign out'));
  const target = routeOf(window.location.hash);
  if (target.page === 'campaign') page = renderCampaign(main, target.jobId);
  else if (target.page === 'audience-campaign') page = renderAudienceCampaign(main, target.campaignId);
  else if (target.page === 'campaign-list') page = renderCampaignList(main);
  else if (target.page === 'audiences') page = renderAudiences(main);
  else if (target.page === 'audience') page = renderAudience(main, target.audienceId);
  else if (target.page === 'templates') page = renderTemplates(main);
  else if (target.page === 'campaign-new') page = renderCampaignBuilder(main);
  else page = renderList(main);
}

const apiBase = document.querySelector<HTMLMetaElement>('meta[name="console-api-base"]')?.content ?? '';
configureApi(apiBase, (reason) => showSignIn(reason));
window.addEventListener('hashchange', route);
route();
