/**
 * What the provider bundle takes from undici (scripts/build-provider.mjs bundles this file in place
 * of undici's index): the dispatcher classes and functions the SDK and the provider use, without
 * the rest of the index (fetch, WebSocket, EventSource, the mock, cache and proxy layers), which
 * the provider never runs but would evaluate and keep in memory at every configured start.
 * Measured: undici's index adds about 17 MiB to a process's peak memory, this selection about 9.
 *
 * A name the provider imports from 'undici' that is missing here fails the bundle build
 * (esbuild: "No matching export"), so this list cannot silently fall behind the sources.
 */
'use strict';

const Dispatcher = require('undici/lib/dispatcher/dispatcher');
const api = require('undici/lib/api');
const { getGlobalDispatcher } = require('undici/lib/global');

// As undici's index does: request(), stream(), pipeline(), connect() and upgrade() on every dispatcher.
Object.assign(Dispatcher.prototype, api);

// The names imported as values from 'undici' (types are erased): Agent, buildConnector and
// getGlobalDispatcher by the SDK and the provider, errors by the bundle script's own test.
module.exports = {
  Agent: require('undici/lib/dispatcher/agent'),
  buildConnector: require('undici/lib/core/connect'),
  errors: require('undici/lib/core/errors'),
  getGlobalDispatcher,
};
