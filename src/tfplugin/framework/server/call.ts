/**
 * How the framework runs one RPC: the state the calls share, a diagnostics collector per call,
 * and the two error channels. What users must act on is a diagnostic; an exception thrown by
 * provider code is a bug, logged with its stack and reported as "internal error in
 * <type>.<op>" — unless the call's signal aborted and the exception is that abort, which is
 * reported as the stop or cancellation it is.
 */
import type { Diagnostic } from '../../protocol/diagnostics';
import type { ProviderResponse } from '../provider-server';
import type { JsonLogger } from '../../protocol/log';
import { DiagnosticsCollector } from '../diagnostics';
import { ProviderStoppingError, STOPPING_SUMMARY, type StopController } from '../stop';
import type { EphemeralResource } from '../ephemeral';
import type { ProviderFunction } from '../function';
import type { DataSource, ProviderDefinition, Resource, Schema } from '../types';

/** Thrown inside a call to end it after reporting diagnostics. */
export class Abort extends Error {}

/**
 * What the calls of one provider process share. RPCs may arrive concurrently (`-parallelism`):
 * the only state written after construction is what ConfigureProvider stores once.
 */
export interface ServerScope<TContext> {
  readonly definition: ProviderDefinition<TContext>;
  readonly resources: ReadonlyMap<string, Resource<TContext>>;
  readonly dataSources: ReadonlyMap<string, DataSource<TContext>>;
  readonly ephemeralResources: ReadonlyMap<string, EphemeralResource<TContext>>;
  readonly functions: ReadonlyMap<string, ProviderFunction>;
  /** The process's hclog-style logger; also the provider's logger. */
  readonly logger: JsonLogger;
  /** Tripped by StopProvider. */
  readonly stop: StopController;
  /** Set by a successful ConfigureProvider. */
  configured?: { readonly context: TContext };
}

/** Builds the shared state of a provider definition. */
export function createScope<TContext>(
  definition: ProviderDefinition<TContext>,
  logger: JsonLogger,
  stop: StopController,
): ServerScope<TContext> {
  return {
    definition,
    resources: new Map(definition.resources.map((resource) => [resource.typeName, resource])),
    dataSources: new Map(definition.dataSources.map((dataSource) => [dataSource.typeName, dataSource])),
    ephemeralResources: new Map((definition.ephemeralResources ?? []).map((ephemeral) => [ephemeral.typeName, ephemeral])),
    functions: new Map((definition.functions ?? []).map((fn) => [fn.name, fn])),
    logger,
    stop,
  };
}

/** What identifies a call in logs and internal-error diagnostics. */
export interface CallInfo {
  /** Resource, data-source or ephemeral resource type, `provider.<name>`, or `function <name>`. */
  readonly typeName: string;
  /** The operation, e.g. `apply`. */
  readonly operation: string;
  /** The schema diagnostic paths refer to. */
  readonly schema: Schema | undefined;
  /** The call's signal. */
  readonly signal: AbortSignal;
}

/** The diagnostic of a call refused or cut short because Terraform stops the provider. */
export function stoppingDiagnostic(): Diagnostic {
  return {
    severity: 'error',
    summary: STOPPING_SUMMARY,
    detail: 'Terraform asked the provider to stop (StopProvider, e.g. after Ctrl-C); the operation was not completed.',
  };
}

function isAbortOf(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted && (error === signal.reason || (error as Error | undefined)?.name === 'AbortError');
}

/**
 * Runs one call body with a diagnostics collector and returns its response with the collected
 * diagnostics; `fallback` is the response when the body ends early (an {@link Abort}, a bug, a
 * stop). Calls arriving after StopProvider are refused without running the body.
 */
export async function runCall<R extends ProviderResponse, TContext = unknown>(
  scope: ServerScope<TContext>,
  info: CallInfo,
  fallback: Omit<R, 'diagnostics'>,
  body: (diags: DiagnosticsCollector) => Promise<Omit<R, 'diagnostics'>>,
): Promise<R> {
  if (scope.stop.stopping) return { ...fallback, diagnostics: [stoppingDiagnostic()] } as unknown as R;
  const diags = new DiagnosticsCollector(info.schema);
  const started = Date.now();
  let response = fallback;
  try {
    response = await body(diags);
  } catch (error) {
    if (isAbortOf(error, info.signal)) {
      if (info.signal.reason instanceof ProviderStoppingError) {
        const stopping = stoppingDiagnostic();
        diags.error(stopping.summary, stopping.detail);
      } else {
        diags.error('Request cancelled', `Terraform cancelled the ${info.operation} of ${info.typeName} before it completed.`);
      }
    } else if (!(error instanceof Abort)) {
      const message = (error as Error)?.message ?? String(error);
      scope.logger.error(`internal error in ${info.typeName}.${info.operation}`, { error: (error as Error)?.stack ?? message });
      diags.error(
        `internal error in ${info.typeName}.${info.operation}: ${message}`,
        'This is a bug in the provider; the provider log (TF_LOG_PROVIDER=error) has the details. Please report it.',
      );
    }
  }
  if (scope.logger.enabled('debug')) {
    scope.logger.debug(`${info.typeName}.${info.operation} done`, { duration_ms: Date.now() - started, diagnostics: diags.all().length });
  }
  return { ...response, diagnostics: diags.all() } as unknown as R;
}

/** The configured context, or an error diagnostic and {@link Abort} before configuration. */
export function requireContext<TContext>(scope: ServerScope<TContext>, diags: DiagnosticsCollector): TContext {
  if (!scope.configured) {
    diags.error(
      'Provider not configured',
      `The ${scope.definition.typeName} provider was used before a successful configuration; see the errors of its provider block.`,
    );
    throw new Abort();
  }
  return scope.configured.context;
}
