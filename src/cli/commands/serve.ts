/**
 * `orgadmin serve`: runs the Organization Administration Service in the foreground until SIGINT or
 * SIGTERM, then shuts down gracefully within `--shutdown-timeout` (operations/shutdown.ts). Prints
 * one ready line when it accepts connections (text, or one JSON object with `--json`), so scripts
 * and tests can wait for it and read the real port (`--port 0`); the request log follows on
 * standard output (JSON lines unless `--log-format pretty`; `--log-level silent` turns it off).
 * Health probes and Prometheus metrics are served on the API's port, or on `--management-port`.
 */
import { COMPAT_MODES, isCompatMode, type CompatMode } from '../../service/compat';
import { allowedHostProblem } from '../../service/host-header';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from '../../service/operations/shutdown';
import { dnsServerProblem } from '../../service/domains/txt-lookup';
import { startServer } from '../../service/server';
import { defineCommand } from '../command';
import { COMMON_FLAGS, explainStoreError, resolveDataFile } from '../context';
import { CliError, EXIT, UsageError } from '../errors';
import type { CliIO } from '../io';
import { ServeLog, parseLogFormat, parseLogLevel, type LogFormat, type LogLevel } from '../log-output';

/** The options `orgadmin serve` passes to the service. */
export interface ServeOptions {
  dataFile: string;
  host: string;
  port: number;
  domain: string;
  rateLimit?: { requests: number; windowSeconds: number };
  /** The public base address for the URLs the service writes; default from each request. */
  publicBaseUrl?: string;
  /** The hosts requests may name in `Host`; default any. */
  allowedHosts?: string[];
  /** `hosted`: reproduce the real hosted service's quirks; default `standard`. */
  compat?: CompatMode;
  /** The DNS server domain verification asks (`HOST:PORT`); default the system's resolvers. */
  dnsServer?: string;
  /** Print the ready line as JSON (`{"url":"http://HOST:PORT"}`) instead of text. */
  json?: boolean;
  /** Let webhooks reach loopback, link-local and private addresses. */
  allowPrivateWebhooks?: boolean;
  /** This instance's name in webhook delivery leases (default: the host name). */
  instanceName?: string;
  /** Request log format (default json). */
  logFormat?: LogFormat;
  /** Request log level (default info; silent: no log). */
  logLevel?: LogLevel;
  /** Port of health probes and metrics instead of the API's port. */
  managementPort?: number;
  /** Bound of the graceful shutdown in ms (default 10 s). */
  shutdownTimeoutMs?: number;
}

/** Interface a foreground service listens on unless `--host` says otherwise. */
export const DEFAULT_HOST = '127.0.0.1';
/** Port a foreground service listens on unless `--port` says otherwise. */
export const DEFAULT_PORT = 8080;

/** `--host` and `--port`, shared by every command that runs the service in the foreground. */
export const LISTEN_FLAGS = {
  host: { type: 'string', valueName: 'HOST', description: `Address to listen on (default ${DEFAULT_HOST}).` },
  port: { type: 'string', valueName: 'PORT', description: `Port to listen on; 0 picks a free one (default ${DEFAULT_PORT}).` },
} as const;

/** The signals that stop a foreground service. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** A pending wait for SIGINT or SIGTERM. */
export interface StopSignal {
  /** Resolves with the name of the first stop signal received. */
  readonly received: Promise<NodeJS.Signals>;
  /** Stops listening (the signals kill the process again). Idempotent. */
  dispose(): void;
}

/**
 * Starts listening for SIGINT and SIGTERM. While it listens, the signals do not kill the process,
 * so the caller can close the server and the database first; after the first signal (or
 * `dispose()`) the default behaviour is back, so a second Ctrl-C kills at once.
 */
export function listenForStopSignal(): StopSignal {
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const dispose = (): void => {
    for (const name of STOP_SIGNALS) process.off(name, onSignal);
  };
  const received = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = (signal) => {
      dispose();
      resolve(signal);
    };
  });
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  return { received, dispose };
}

/**
 * Parses `--port`: a whole number from 0 (any free port) to 65535.
 * @throws UsageError otherwise.
 */
export function parsePort(value: string, flag = '--port'): number {
  const port = Number(value);
  if (!/^[0-9]+$/.test(value) || port > 65535) {
    throw new UsageError(`${flag} must be a whole number from 0 to 65535, not "${value}".`);
  }
  return port;
}

/**
 * Parses `--shutdown-timeout SECONDS`: a positive number of seconds (fractions allowed), in ms.
 * @throws UsageError otherwise.
 */
export function parseShutdownTimeout(value: string): number {
  const seconds = Number(value);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(`--shutdown-timeout must be a number of seconds above 0 and at most 3600, not "${value}".`);
  }
  return Math.round(seconds * 1000);
}

/**
 * Parses `--rate-limit N/SECONDS` (at most N requests per client per SECONDS).
 * @throws UsageError when either part is not a positive whole number.
 */
export function parseRateLimit(value: string): { requests: number; windowSeconds: number } {
  const match = /^([0-9]+)\/([0-9]+)$/.exec(value);
  const requests = match ? Number(match[1]) : 0;
  const windowSeconds = match ? Number(match[2]) : 0;
  if (!match || requests <= 0 || windowSeconds <= 0 || !Number.isSafeInteger(requests) || !Number.isSafeInteger(windowSeconds)) {
    throw new UsageError(`--rate-limit must be REQUESTS/SECONDS with two positive whole numbers (e.g. 100/60), not "${value}".`);
  }
  return { requests, windowSeconds };
}

/**
 * Parses `--public-url URL`: an absolute http(s) URL without query or fragment (a path is kept:
 * `https://example.com/orgadmin`). Returned without trailing slashes.
 * @throws UsageError otherwise.
 */
export function parsePublicUrl(value: string): string {
  const refuse = (why: string): UsageError =>
    new UsageError(`--public-url must be an absolute http or https URL without query or fragment (${why}), not "${value}".`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`scheme ${url.protocol.replace(/:$/, '')}`);
  // `new URL` drops an empty "?" or "#", so look at the text too.
  if (value.includes('?') || value.includes('#')) throw refuse('it has a query or fragment');
  if (url.username !== '' || url.password !== '') throw refuse('it has credentials');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * Parses `--allowed-hosts HOST[,HOST...]`: host names or addresses, or `*.DOMAIN` for every
 * subdomain, without scheme, port or path.
 * @throws UsageError otherwise.
 */
export function parseAllowedHosts(value: string): string[] {
  const hosts = value.split(',').map((entry) => entry.trim());
  for (const host of hosts) {
    const problem = allowedHostProblem(host);
    if (problem) throw new UsageError(`--allowed-hosts entry "${host}" ${problem}.`);
  }
  return hosts;
}

/** Whether `host` (an address to listen on) is reachable only from this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * Refuses to serve other machines without knowing its own address: the issuer, redirect URIs,
 * `Location` headers and portal links would otherwise follow whatever `Host` a request names,
 * which a proxy forwarding the client's `Host` lets anyone choose.
 * @throws UsageError when `host` is not loopback and neither a public URL nor allowed hosts are set.
 */
export function requireKnownAddress(host: string, publicBaseUrl: string | undefined, allowedHosts: string[] | undefined): void {
  if (isLoopbackHost(host) || publicBaseUrl !== undefined || allowedHosts !== undefined) return;
  throw new UsageError(
    `listening on ${host} serves other machines: give --public-url URL (the address clients use) or --allowed-hosts HOST[,HOST...], so that links and the issuer are not taken from the request's Host header.`,
  );
}

/**
 * Parses `--compat MODE`: `standard` or `hosted`.
 * @throws UsageError otherwise.
 */
export function parseCompat(value: string): CompatMode {
  if (!isCompatMode(value)) throw new UsageError(`--compat must be one of ${COMPAT_MODES.join(', ')}, not "${value}".`);
  return value;
}

/**
 * Parses `--dns-server HOST:PORT` (an IP address, `[IPv6]:PORT`, or an address alone for port 53).
 * @throws UsageError otherwise.
 */
export function parseDnsServer(value: string): string {
  const problem = dnsServerProblem(value);
  if (problem) throw new UsageError(`--dns-server ${problem}, not "${value}".`);
  return value;
}

/**
 * Starts the service, prints one ready line (`orgadmin listening on URL`, or `{"url":"URL"}` with
 * `json`), and keeps it running until `stop` settles; then closes the server and its store. `stop`
 * is a parameter so tests can decide what ends the service.
 */
export async function serveUntil(options: ServeOptions, io: CliIO, stop: Promise<unknown>): Promise<void> {
  const { json, logFormat = 'json', logLevel = 'info', ...serverOptions } = options;
  const log = logLevel === 'silent' ? undefined : new ServeLog(io, logFormat, logLevel);
  const server = await startServer({
    ...serverOptions,
    logger: log === undefined ? false : { level: log.level, stream: log.stream },
    metrics: true,
  }).catch((error: unknown) => {
    log?.open();
    throw explainStartError(error, options);
  });
  let outcome;
  try {
    const ready = json ? JSON.stringify({ url: server.url, ...(server.managementUrl ? { managementUrl: server.managementUrl } : {}) }) : `orgadmin listening on ${server.url}`;
    io.stdout(`${ready}\n`);
    log?.open();
    await stop;
  } finally {
    outcome = await server.close();
  }
  if (outcome.forced) {
    throw new CliError(
      `the shutdown took longer than --shutdown-timeout (${(options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS) / 1000} s); the connections still open were cut.`,
    );
  }
}

/**
 * Turns the usual reasons the service fails to start (the port or host cannot be listened on, the
 * data file or database cannot be opened) into a one-sentence {@link CliError}; anything else stays
 * a bug.
 */
export function explainStartError(error: unknown, options: { host: string; port: number; dataFile: string }): unknown {
  const { code, syscall, hostname } = (error ?? {}) as { code?: unknown; syscall?: unknown; hostname?: unknown };
  // Only errors of the listen itself (or of looking up --host) are about --host and --port: an
  // ENOTFOUND or EACCES of the database connection or data file is about --data.
  const fromListen = syscall === 'listen' || (syscall === 'getaddrinfo' && hostname === options.host);
  if (fromListen && code === 'EADDRINUSE') {
    return new CliError(`port ${options.port} on ${options.host} is already in use; choose another with --port.`);
  }
  if (fromListen && code === 'EACCES') {
    return new CliError(`not allowed to listen on port ${options.port} of ${options.host}; choose a port above 1023 with --port.`);
  }
  if (fromListen && (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')) {
    return new CliError(`cannot listen on host ${options.host}: it is not an address of this machine.`);
  }
  return explainStoreError(error, options.dataFile) ?? error;
}

const serve = defineCommand(
  {
    command: 'serve',
    summary: 'Runs the Organization Administration Service until SIGINT or SIGTERM.',
    flags: {
      ...LISTEN_FLAGS,
      domain: {
        type: 'string',
        valueName: 'DOMAIN',
        description: 'Domain whose subdomains name realms: acme.DOMAIN is realm acme (default localhost).',
      },
      'rate-limit': {
        type: 'string',
        valueName: 'N/SECONDS',
        description: 'At most N requests per client per SECONDS, answered 429 beyond (default: off).',
      },
      'public-url': {
        type: 'string',
        valueName: 'URL',
        description:
          'Address clients reach the service at, e.g. https://orgs.example.com behind a TLS proxy; starts every URL the service writes (default: from each request).',
      },
      'allowed-hosts': {
        type: 'string',
        valueName: 'HOST[,HOST...]',
        description:
          'Host names requests may use (*.DOMAIN for every subdomain); any other Host header is refused with 400. Required, or --public-url, when --host is not a loopback address (default: any host).',
      },
      compat: {
        type: 'string',
        valueName: 'MODE',
        description:
          'standard, or hosted to reproduce the hosted service\'s quirks (401 for a missing permission, Keycloak-style error bodies) for testing clients (default: standard).',
      },
      'allow-private-webhooks': {
        type: 'boolean',
        description:
          'Let webhook URLs reach loopback, link-local and private addresses (refused by default, so a webhook cannot probe this machine or its network). For tests and closed networks.',
      },
      'instance-name': {
        type: 'string',
        valueName: 'NAME',
        description:
          'This instance\'s name in webhook delivery leases (default: the host name). Instances sharing one PostgreSQL database need different names.',
      },
      'log-format': { type: 'string', valueName: 'FORMAT', description: 'Request log format: json (one object per line) or pretty (default: json).' },
      'log-level': {
        type: 'string',
        valueName: 'LEVEL',
        description: 'Request log level: fatal, error, warn, info, debug, trace, or silent for no log (default: info).',
      },
      'management-port': {
        type: 'string',
        valueName: 'PORT',
        description: 'Serve /health/live, /health/ready and /metrics on this port instead of the API\'s (default: on the API\'s port).',
      },
      'shutdown-timeout': {
        type: 'string',
        valueName: 'SECONDS',
        description: `On SIGTERM or SIGINT, answer the accepted requests for at most this long, then cut what is still open (default: ${DEFAULT_SHUTDOWN_TIMEOUT_MS / 1000}).`,
      },
      'dns-server': {
        type: 'string',
        valueName: 'HOST:PORT',
        description: "DNS server that domain verification asks for TXT records, e.g. 10.0.0.2:53 (default: the system's resolvers).",
      },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags }, io) => {
    // Validate everything before touching the data file or the network.
    const port = flags.port === undefined ? DEFAULT_PORT : parsePort(flags.port);
    const rateLimit = flags['rate-limit'] === undefined ? undefined : parseRateLimit(flags['rate-limit']);
    const publicBaseUrl = flags['public-url'] === undefined ? undefined : parsePublicUrl(flags['public-url']);
    const allowedHosts = flags['allowed-hosts'] === undefined ? undefined : parseAllowedHosts(flags['allowed-hosts']);
    const compat = flags.compat === undefined ? undefined : parseCompat(flags.compat);
    const host = flags.host ?? DEFAULT_HOST;
    requireKnownAddress(host, publicBaseUrl, allowedHosts);
    const logFormat = flags['log-format'] === undefined ? undefined : parseLogFormat(flags['log-format']);
    const logLevel = flags['log-level'] === undefined ? undefined : parseLogLevel(flags['log-level']);
    const managementPort = flags['management-port'] === undefined ? undefined : parsePort(flags['management-port'], '--management-port');
    const shutdownTimeoutMs = flags['shutdown-timeout'] === undefined ? undefined : parseShutdownTimeout(flags['shutdown-timeout']);
    const dnsServer = flags['dns-server'] === undefined ? undefined : parseDnsServer(flags['dns-server']);
    const options: ServeOptions = {
      dataFile: resolveDataFile(flags.data, io),
      host,
      port,
      domain: flags.domain ?? 'localhost',
      rateLimit,
      publicBaseUrl,
      allowedHosts,
      compat,
      dnsServer,
      json: flags.json,
      allowPrivateWebhooks: flags['allow-private-webhooks'] === true,
      instanceName: flags['instance-name'],
      logFormat,
      logLevel,
      managementPort,
      shutdownTimeoutMs,
    };
    const stop = listenForStopSignal();
    try {
      await serveUntil(options, io, stop.received);
    } finally {
      stop.dispose();
    }
    return EXIT.ok;
  },
);

/** `orgadmin serve ...` */
export const runServeCommand = serve.run;
