import { consoleAddressesOf } from '../../../local/identity-provider/provider-configuration';
import { contentSecurityPolicy } from '../../../local/identity-provider/identity-http-io';
import { errorPage, signInPage, signOutPage } from '../../../local/identity-provider/sign-in-pages';

describe("the local identity provider's pages", () => {
  it('sign-in: labelled fields, no inline script or style, the typed email kept and escaped', () => {
    const html = signInPage({ action: '/interaction/abc/login', failed: true, email: '"><script>alert(1)</script>' });
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).not.toMatch(/<script|<style|style=/);
    expect(html).toContain('role="alert"');
    expect(html).toContain('aria-describedby="sign-in-error"');
  });

  it('sign-in without a failure shows no error', () => {
    expect(signInPage({ action: '/interaction/abc/login', failed: false })).not.toContain('role="alert"');
  });

  it("sign-out: the provider's form signs out (logout=yes); only a confirmed request loads the submitting script", () => {
    const providerForm = '<form id="op.logoutForm" method="post" action="/session/end/confirm"><input type="hidden" name="xsrf" value="x"/></form>';
    const confirmed = signOutPage({ providerForm, confirmed: true, cancelUrl: 'http://127.0.0.1:3000/console/' });
    expect(confirmed).toContain('data-confirmed="yes"');
    expect(confirmed).toContain('<input type="hidden" name="logout" value="yes">');
    expect(confirmed).toContain('<script src="/assets/sign-out.js" defer></script>');
    const asked = signOutPage({ providerForm, confirmed: false });
    expect(asked).toContain('data-confirmed="no"');
    expect(asked).not.toContain('<script');
    expect(asked).toContain('<button class="primary" type="submit">Sign out</button>');
  });

  it('error pages escape what the provider reports', () => {
    expect(errorPage({ error: 'invalid_request', error_description: '<b>bad</b>' })).toContain('&lt;b&gt;bad&lt;/b&gt;');
  });

  it("the CSP allows nothing inline, forms to itself and the console's origins only", () => {
    expect(contentSecurityPolicy(['http://127.0.0.1:3000'])).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self' http://127.0.0.1:3000; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it("the console client's addresses: both console pages, also under localhost", () => {
    expect(consoleAddressesOf('http://127.0.0.1:3000')).toEqual([
      'http://127.0.0.1:3000/console/',
      'http://127.0.0.1:3000/prod/api/v2/console/',
      'http://localhost:3000/console/',
      'http://localhost:3000/prod/api/v2/console/',
    ]);
    expect(consoleAddressesOf('http://example.test:8080/')).toEqual(['http://example.test:8080/console/', 'http://example.test:8080/prod/api/v2/console/']);
  });
});
