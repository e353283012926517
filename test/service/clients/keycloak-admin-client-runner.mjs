/**
 * Drives `@keycloak/keycloak-admin-client` (ESM-only, so it runs here in its own Node process
 * rather than inside jest's CommonJS runtime) against a running service: signs in with an API key
 * (client_credentials) and looks users up as a Keycloak admin script would. Input comes from the
 * environment (KC_BASE_URL, KC_REALM, KC_CLIENT_ID, KC_CLIENT_SECRET, KC_LOOKUPS: a JSON array of
 * `users.find` queries); the answers are printed as one JSON line: `{"results":[[ids…], …]}` in
 * the order of the queries, or `{"error":"…"}`.
 */
import KcAdminClient from '@keycloak/keycloak-admin-client';

const { KC_BASE_URL, KC_REALM, KC_CLIENT_ID, KC_CLIENT_SECRET, KC_LOOKUPS } = process.env;

try {
  const client = new KcAdminClient({ baseUrl: KC_BASE_URL, realmName: KC_REALM });
  await client.auth({ grantType: 'client_credentials', clientId: KC_CLIENT_ID, clientSecret: KC_CLIENT_SECRET });
  const results = [];
  for (const query of JSON.parse(KC_LOOKUPS ?? '[]')) {
    const users = await client.users.find(query);
    results.push(users.map((user) => ({ id: user.id, username: user.username, email: user.email })));
  }
  process.stdout.write(`${JSON.stringify({ results })}\n`);
} catch (error) {
  // The client's errors carry the HTTP answer; print the status and message only.
  const status = error?.response?.status;
  process.stdout.write(`${JSON.stringify({ error: `${status ?? ''} ${error?.message ?? String(error)}`.trim() })}\n`);
  process.exitCode = 1;
}
