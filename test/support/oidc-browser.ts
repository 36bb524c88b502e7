/**
 * A browser's part of an OpenID Connect sign-in, in plain HTTP: redirects followed by hand, the
 * provider's cookies kept per host (by name: enough for one flow at a time), and the console's side
 * of the authorization code flow with PKCE (S256). For tests of the local identity provider.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface PageAnswer {
  status: number;
  url: string;
  headers: Headers;
  text: string;
}

export interface OidcBrowser {
  /** One request, no redirect followed; cookies sent and kept. */
  request(url: string, init?: { method?: string; form?: Record<string, string>; headers?: Record<string, string> }): Promise<PageAnswer>;
  /** Follows redirects until an answer that is not one, or a redirect to an address starting with `stopAt` (returned unfollowed). */
  follow(url: string, init?: { method?: string; form?: Record<string, string> }, stopAt?: string): Promise<PageAnswer>;
}

export function createOidcBrowser(): OidcBrowser {
  const jar = new Map<string, Map<string, string>>();
  const cookiesOf = (host: string) => jar.get(host) ?? jar.set(host, new Map()).get(host)!;
  const keep = (host: string, headers: Headers) => {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.trim().split('=');
      const expired = attributes.some((attribute) => /^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1]!) < Date.now());
      if (expired || value.join('=') === '') cookiesOf(host).delete(name!);
      else cookiesOf(host).set(name!, value.join('='));
    }
  };
  const request: OidcBrowser['request'] = async (url, init = {}) => {
    const host = new URL(url).host;
    const cookie = [...cookiesOf(host)].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...init.headers },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    keep(host, response.headers);
    return { status: response.status, url, headers: response.headers, text: await response.text() };
  };
  return {
    request,
    async follow(url, init, stopAt) {
      let answer = await request(url, init);
      for (let hops = 0; answer.status >= 300 && answer.status < 400; hops += 1) {
        if (hops > 10) throw new Error(`more than 10 redirects from ${url}`);
        const next = new URL(answer.headers.get('location')!, answer.url).href;
        if (stopAt && next.startsWith(stopAt)) return { ...answer, url: next };
        answer = await request(next);
      }
      return answer;
    },
  };
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The value of a hidden or text input of a page's form, by name. */
export function inputValue(html: string, name: string): string | undefined {
  return new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1];
}

/** The action of the page's (first) form. */
export function formAction(html: string): string | undefined {
  return /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
}

export interface ConsoleTokens {
  id_token: string;
  access_token: string;
  refresh_token?: string;
}

/**
 * The console's sign-in as a person: authorize with PKCE, the provider's sign-in form, the code traded
 * at the token endpoint (with the console's Origin, as a browser sends it). Fails the test on any other turn.
 *
 * @example
 * const { tokens } = await signInAsPerson(createOidcBrowser(), { issuer: runtime.demo.identity.issuer, redirectUri: `${runtime.baseUrl}/console/`, email, password });
 */
export async function signInAsPerson(
  browser: OidcBrowser,
  options: ({ discovery: Record<string, string> } | { issuer: string }) & { redirectUri: string; email: string; password: string },
): Promise<{ tokens: ConsoleTokens; tokenAnswer: Response }> {
  const discovery =
    'discovery' in options ? options.discovery : ((await (await fetch(`${options.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>);
  const { verifier, challenge } = pkcePair();
  const authorize = new URL(discovery.authorization_endpoint!);
  const query = {
    client_id: 'console',
    response_type: 'code',
    scope: 'openid email',
    redirect_uri: options.redirectUri,
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(query)) authorize.searchParams.set(name, value);
  const page = await browser.follow(authorize.href, undefined, options.redirectUri);
  if (page.status !== 200 || !formAction(page.text)) throw new Error(`no sign-in page: ${page.status} ${page.url}`);
  const back = await browser.follow(
    new URL(formAction(page.text)!, page.url).href,
    { form: { email: options.email, password: options.password } },
    options.redirectUri,
  );
  const callback = new URL(back.url);
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== 'state-1')
    throw new Error(`sign-in did not return to the console with a code: ${back.status} ${back.url}`);
  const tokenAnswer = await fetch(discovery.token_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(options.redirectUri).origin },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: options.redirectUri, client_id: 'console' }),
  });
  if (tokenAnswer.status !== 200) throw new Error(`token endpoint answered ${tokenAnswer.status}: ${await tokenAnswer.text()}`);
  return { tokens: (await tokenAnswer.json()) as ConsoleTokens, tokenAnswer };
}
