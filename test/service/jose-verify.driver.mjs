// Verifies JWTs with jose (an ES module, which jest's CommonJS runtime cannot load) for
// organizations-claim.test.ts, the way an application would: the issuer's discovery document, its
// JWKS, RS256 signatures, issuer and audience. Reads {"issuer", "tokens": [{"token", "audience"}]}
// from argv[2]; prints the payloads in order, or {"failed": "<message>"} for the first that fails.
import { createRemoteJWKSet, jwtVerify } from 'jose';

const input = JSON.parse(process.argv[2]);
try {
  const discovery = await (await fetch(`${input.issuer}/.well-known/openid-configuration`)).json();
  const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
  const payloads = [];
  for (const { token, audience } of input.tokens) {
    const { payload } = await jwtVerify(token, jwks, { issuer: discovery.issuer, audience, algorithms: ['RS256'] });
    payloads.push(payload);
  }
  process.stdout.write(JSON.stringify({ payloads, claimsSupported: discovery.claims_supported }));
} catch (error) {
  process.stdout.write(JSON.stringify({ failed: String(error?.message ?? error) }));
}
