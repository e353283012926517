#!/usr/bin/env node
/**
 * The floor of `bench:service`: a bare `node:http` server that answers every request with 204, in
 * a process of its own (as the service runs in its own), so that neither shares an event loop or a
 * heap with the other or with the benchmark's orchestration.
 *
 * Started by bench/service.mjs; prints `{"url": …}` as one JSON line once it listens and stops
 * when its stdin closes (so it never outlives the benchmark).
 */
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  request.resume();
  response.writeHead(204);
  response.end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => server.close(() => process.exit(0)));
