#!/usr/bin/env node
/**
 * The sign-in row of `bench:service`: how long a legitimate password sign-in takes idle, and while
 * one other address floods the token endpoint with password attempts for ever new usernames (which
 * the per-username throttle never slows; src/service/auth/hash-gate.ts bounds them). The flood
 * comes from 127.0.0.2, the sign-in from 127.0.0.3, both over loopback to the service.
 *
 * Reads `{ url, realm, username, password, flood, rounds }` as JSON on stdin (the password stays
 * out of argv); prints one JSON line: the median sign-in milliseconds idle and during the floods,
 * and how many flood attempts were refused at once (429) rather than hashed.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Agent, request } = require('undici');

let text = '';
for await (const chunk of process.stdin) text += chunk;
const { url, realm, username, password, flood, rounds } = JSON.parse(text);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const flooder = new Agent({ localAddress: '127.0.0.2', connections: flood });
const user = new Agent({ localAddress: '127.0.0.3' });
const tokenUrl = `${url}/realms/${realm}/protocol/openid-connect/token`;

/** One password grant through `agent`; resolves with its status. */
async function signIn(agent, name, secret) {
  const answer = await request(tokenUrl, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: name, password: secret }).toString(),
  });
  await answer.body.dump();
  return answer.statusCode;
}

/** Milliseconds of the legitimate sign-in (which must succeed). */
async function timedSignIn() {
  const started = performance.now();
  const status = await signIn(user, username, password);
  if (status !== 200) throw new Error(`the legitimate sign-in answered ${status}`);
  return performance.now() - started;
}

try {
  const idle = [];
  for (let i = 0; i < 5; i += 1) idle.push(await timedSignIn());
  const during = [];
  let refused = 0;
  let attempt = 0;
  for (let round = 0; round < rounds; round += 1) {
    const attempts = Array.from({ length: flood }, () => signIn(flooder, `nobody-${attempt++}`, 'guess'));
    // Let the flood's requests reach the service before the sign-in is sent.
    await new Promise((resolve) => setTimeout(resolve, 50));
    during.push(await timedSignIn());
    refused += (await Promise.all(attempts)).filter((status) => status === 429).length;
  }
  process.stdout.write(`${JSON.stringify({ idleMs: median(idle), floodMs: median(during), refused: refused / rounds })}\n`);
} finally {
  await Promise.all([flooder.close(), user.close()]);
}
