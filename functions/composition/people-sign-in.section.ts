/**
 * People's sign-in (docs/PEOPLE.md "Tokens"): the token verifier over the configured issuers, built
 * once per process (its JWKS and userinfo caches then serve every request), and the authentication
 * of a person's request over the tenancy reads.
 */
import { authenticatePerson, type PersonCaller } from '../../shared/people/authenticate-person';
import { InvalidPersonTokenError } from '../../shared/people/errors';
import type { PersonTokenVerifier } from '../../shared/people/ports';
import type { PersonPresentation } from '../../shared/http/http-operation';
import type { TenancyStores } from '../../shared/tenancy/tenancy-stores';
import type { CompositionContext } from './composition-context';

/** No issuer configured: every person's token is refused (401), no discovery is attempted. */
const noIssuers: PersonTokenVerifier = {
  verify: async () => {
    throw new InvalidPersonTokenError();
  },
};

/**
 * The process's verifier for the configured issuers (one per issuer list, so tests may run runtimes
 * with different issuers). jose and the verifier are imported on the first person's token, not at
 * cold start: most requests carry an API key, and most groups never see a token.
 */
export function personTokenVerifierSection(context: CompositionContext): () => PersonTokenVerifier {
  const { issuers } = context.config.people;
  return () =>
    context.processShared(`people-token-verifier#${JSON.stringify(issuers)}`, () => {
      if (issuers.length === 0) return noIssuers;
      let loaded: Promise<PersonTokenVerifier> | undefined;
      const verifier = () =>
        (loaded ??= import('../../shared/adapters/oidc/jose-token-verifier').then(({ createJoseTokenVerifier }) =>
          createJoseTokenVerifier({ issuers, now: () => context.clock.now() }),
        ));
      return { verify: async (token) => (await verifier()).verify(token) } satisfies PersonTokenVerifier;
    });
}

/** Authenticates a person's sign-in against the verifier and the tenancy reads. */
export function personAuthenticatorSection(
  context: CompositionContext,
  repository: () => TenancyStores,
): (person: PersonPresentation) => Promise<PersonCaller> {
  const verifier = personTokenVerifierSection(context);
  return (person) => authenticatePerson({ verifier: verifier(), tenancy: repository() }, person);
}
