#!/usr/bin/env node
/**
 * The load generator of `bench:service`: reads autocannon's options as JSON on stdin, runs it and
 * prints its result as one JSON line. It runs in a process of its own: a generator in a server's
 * event loop would steal the server's time and measure itself. Options come through stdin, not
 * argv: they hold a bearer token, and any local user can read another process's command line.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let text = '';
for await (const chunk of process.stdin) text += chunk;
const autocannon = require('autocannon');
const result = await autocannon({ ...JSON.parse(text), method: 'GET' });
process.stdout.write(`${JSON.stringify(result)}\n`);
