/**
 * Test harness of the orgadmin provider's resources and data sources: a real service on port 0, a
 * provider configured the way Terraform configures it (through `configure`), diagnostics that
 * collect, and a small imitation of the framework's planning so that create/update see the
 * planned state Terraform would send.
 */
import { Agent } from 'undici';
import type { OrgAdminProviderContext } from '../../../src/provider/context';
import type {
  DataSource,
  Diagnostics,
  Logger,
  ObjectValue,
  ProviderDefinition,
  Resource,
  Value,
  AttributePath,
} from '../../../src/provider/framework/types';
import { planChange, uniquePaths } from '../../../src/provider/framework/plan';
import { proposeNewState } from '../../../src/provider/framework/testing';
import { createOrgAdminProvider } from '../../../src/provider/provider';
import { createTestRealm, startTestService, type TestService } from '../../helpers/service';

/** One collected diagnostic. */
export interface CollectedDiagnostic {
  severity: 'error' | 'warning';
  summary: string;
  detail?: string;
  path?: AttributePath;
}

/** Diagnostics that remember everything, for assertions. */
export class Collector implements Diagnostics {
  /** Everything reported, in order. */
  readonly items: CollectedDiagnostic[] = [];

  /** {@inheritDoc Diagnostics.error} */
  error(summary: string, detail?: string, path?: AttributePath): void {
    this.items.push({ severity: 'error', summary, detail, path });
  }

  /** {@inheritDoc Diagnostics.warning} */
  warning(summary: string, detail?: string, path?: AttributePath): void {
    this.items.push({ severity: 'warning', summary, detail, path });
  }

  /** {@inheritDoc Diagnostics.hasErrors} */
  hasErrors(): boolean {
    return this.items.some((item) => item.severity === 'error');
  }

  /** The errors only. */
  get errors(): CollectedDiagnostic[] {
    return this.items.filter((item) => item.severity === 'error');
  }

  /** The warnings only. */
  get warnings(): CollectedDiagnostic[] {
    return this.items.filter((item) => item.severity === 'warning');
  }

  /** Every summary and detail, joined: for "does not contain" assertions. */
  text(): string {
    return this.items.map((item) => `${item.summary}\n${item.detail ?? ''}`).join('\n');
  }
}

/** A logger that keeps every line (to check that secrets never reach logs). */
export class MemoryLogger implements Logger {
  /** Every line logged, as JSON. */
  readonly lines: string[] = [];

  private write(level: string, message: string, fields?: Record<string, unknown>): void {
    this.lines.push(JSON.stringify({ level, message, ...fields }));
  }

  /** {@inheritDoc Logger.debug} */
  debug(message: string, fields?: Record<string, unknown>): void {
    this.write('debug', message, fields);
  }

  /** {@inheritDoc Logger.info} */
  info(message: string, fields?: Record<string, unknown>): void {
    this.write('info', message, fields);
  }

  /** {@inheritDoc Logger.warn} */
  warn(message: string, fields?: Record<string, unknown>): void {
    this.write('warn', message, fields);
  }

  /** {@inheritDoc Logger.error} */
  error(message: string, fields?: Record<string, unknown>): void {
    this.write('error', message, fields);
  }
}

/** A provider configuration object with every attribute (null where not given). */
export function providerConfig(values: Partial<Record<string, Value>>): ObjectValue {
  return {
    base_url: null,
    realm: null,
    client_id: null,
    client_secret: null,
    access_token: null,
    request_timeout: null,
    max_retries: null,
    ...values,
  } as ObjectValue;
}

/** A running service plus a configured provider context. */
export interface Harness {
  svc: TestService;
  realm: string;
  clientId: string;
  clientSecret: string;
  provider: ProviderDefinition<OrgAdminProviderContext>;
  ctx: OrgAdminProviderContext;
  logger: MemoryLogger;
  /** Configures another provider context against the same service (closed by `close`). */
  configure(values: Partial<Record<string, Value>>, diags?: Collector): Promise<OrgAdminProviderContext | undefined>;
  close(): Promise<void>;
}

/** Starts the service, creates realm `acme` with an all-permissions key, configures the provider. */
export async function startHarness(
  opts: { permissions?: string[]; rateLimit?: { requests: number; windowSeconds: number } } = {},
): Promise<Harness> {
  const svc = await startTestService(opts.rateLimit ? { rateLimit: opts.rateLimit } : {});
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  const provider = createOrgAdminProvider({ env: {}, dispatcher: agent });
  const contexts: OrgAdminProviderContext[] = [];
  try {
    const { realm, clientId, clientSecret } = await createTestRealm(svc, 'acme', opts.permissions ? { permissions: opts.permissions } : {});
    const logger = new MemoryLogger();
    const configure = async (values: Partial<Record<string, Value>>, diags = new Collector()): Promise<OrgAdminProviderContext | undefined> => {
      const ctx = await provider.configure(
        providerConfig({ base_url: svc.baseUrl, realm, max_retries: 0, ...values }),
        diags,
        logger,
      );
      if (ctx) contexts.push(ctx);
      return ctx;
    };
    const diags = new Collector();
    const ctx = await configure({ client_id: clientId, client_secret: clientSecret }, diags);
    if (!ctx) throw new Error(`provider configuration failed: ${diags.text()}`);
    return {
      svc,
      realm,
      clientId,
      clientSecret,
      provider,
      ctx,
      logger,
      configure,
      async close() {
        for (const context of contexts) await provider.close?.(context);
        await agent.close();
        await svc.close();
      },
    };
  } catch (error) {
    await agent.close();
    await svc.close();
    throw error;
  }
}

/**
 * Plans as the provider service does: Terraform's proposed new state, the framework's plan
 * ({@link planChange}), then the resource's `modifyPlan`.
 */
export async function plan(
  resource: Resource<OrgAdminProviderContext>,
  ctx: OrgAdminProviderContext,
  config: ObjectValue,
  priorState: ObjectValue | null,
): Promise<{ plannedState: ObjectValue; requiresReplace: AttributePath[]; diags: Collector }> {
  const framework = planChange(resource.schema, priorState, proposeNewState(resource.schema, priorState, config), config);
  const plannedState = framework.plannedState!;
  const modification = { plannedState, requiresReplace: [] as AttributePath[] };
  const diags = new Collector();
  await resource.modifyPlan?.(ctx, { config, priorState, plannedState: { ...plannedState } }, modification, diags);
  return { plannedState: modification.plannedState, requiresReplace: uniquePaths([...framework.requiresReplace, ...modification.requiresReplace]), diags };
}

/** A resource configuration with every schema attribute (null where not given). */
export function resourceConfig(resource: { schema: { attributes: Record<string, unknown> } }, values: Record<string, Value>): ObjectValue {
  const config: ObjectValue = {};
  for (const name of Object.keys(resource.schema.attributes)) config[name] = values[name] ?? null;
  return config;
}

/** Reads a data source with the configuration `values` (other attributes null). */
export async function readDataSource(
  dataSource: DataSource<OrgAdminProviderContext>,
  ctx: OrgAdminProviderContext,
  values: Record<string, Value>,
): Promise<{ state: ObjectValue | null; diags: Collector }> {
  const diags = new Collector();
  const state = await dataSource.read(ctx, { config: resourceConfig(dataSource, values) }, diags);
  return { state, diags };
}

/** Plans and creates; fails the test on any error diagnostic. */
export async function createResource(
  resource: Resource<OrgAdminProviderContext>,
  ctx: OrgAdminProviderContext,
  values: Record<string, Value>,
): Promise<ObjectValue> {
  const config = resourceConfig(resource, values);
  const planned = await plan(resource, ctx, config, null);
  const diags = new Collector();
  const state = await resource.create(ctx, { plannedState: planned.plannedState, config }, diags);
  if (diags.hasErrors() || state === null) throw new Error(`create failed: ${diags.text()}`);
  return state;
}

/** Plans and updates from `prior` to the configuration `values`. */
export async function updateResource(
  resource: Resource<OrgAdminProviderContext>,
  ctx: OrgAdminProviderContext,
  prior: ObjectValue,
  values: Record<string, Value>,
): Promise<{ state: ObjectValue | null; diags: Collector; requiresReplace: AttributePath[] }> {
  const config = resourceConfig(resource, values);
  const planned = await plan(resource, ctx, config, prior);
  const diags = new Collector();
  const state = await resource.update(ctx, { plannedState: planned.plannedState, priorState: prior, config }, diags);
  return { state, diags, requiresReplace: planned.requiresReplace };
}

