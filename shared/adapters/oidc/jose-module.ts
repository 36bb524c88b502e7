/**
 * The entry of `jose.cjs`, the file bundled beside each function that may verify a person's token
 * (lib/constructs/side-packages.ts): jose out of the function's own bundle, required by
 * jose-token-verifier.ts on the first token. Only what the verifier uses, so the file stays small.
 */
export { createRemoteJWKSet, decodeJwt, errors, jwtVerify } from 'jose';
