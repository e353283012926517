/**
 * The managed-resource calls: validation, state upgrade, read, plan, apply, import. Resources
 * see plain values and the call's signal; this file handles Terraform's choreography around
 * them (what a failed delete keeps, which state an error returns, what is a provider bug).
 */
import type { TerraformValue } from '../../protocol/terraform-type';
import { decodeJsonValue } from '../../protocol/values';
import { toPathSteps, type DiagnosticsCollector } from '../diagnostics';
import { planChange, uniquePaths } from '../plan';
import type {
  ApplyResourceChangeRequest,
  ApplyResourceChangeResponse,
  ImportResourceStateRequest,
  ImportResourceStateResponse,
  PlanResourceChangeRequest,
  PlanResourceChangeResponse,
  ProviderResponse,
  ReadResourceRequest,
  ReadResourceResponse,
  UpgradeResourceStateRequest,
  UpgradeResourceStateResponse,
  ValidateConfigRequest,
} from '../provider-server';
import { schemaObjectType } from '../schema';
import { PrivateState } from '../private-state';
import type { ObjectValue, PlanModification, Resource } from '../types';
import { Abort, requireContext, runCall, type CallInfo, type ServerScope } from './call';
import { checkKnown, decodeObject, encodeObject } from './values';
import { checkWriteOnlyAllowed, withoutWriteOnly } from '../write-only';

function callInfo<TContext>(scope: ServerScope<TContext>, typeName: string, operation: string, signal: AbortSignal): CallInfo {
  return { typeName, operation, schema: scope.resources.get(typeName)?.schema, signal };
}

function requireResource<TContext>(scope: ServerScope<TContext>, typeName: string, diags: DiagnosticsCollector): Resource<TContext> {
  const resource = scope.resources.get(typeName);
  if (!resource) {
    diags.error('Unknown resource type', `This provider has no resource type ${JSON.stringify(typeName)}.`);
    throw new Abort();
  }
  return resource;
}

/** ValidateResourceConfig: write-only attributes only where Terraform supports them, then the resource's static checks. */
export function validateResourceConfig<TContext>(scope: ServerScope<TContext>, req: ValidateConfigRequest): Promise<ProviderResponse> {
  return runCall<ProviderResponse, TContext>(scope, callInfo(scope, req.typeName, 'validate', req.signal), {}, async (diags) => {
    const found = requireResource(scope, req.typeName, diags);
    const config = decodeObject(req.config, found.schema, diags, 'config');
    if (config) checkWriteOnlyAllowed(found.schema, config, req.clientCapabilities, diags);
    if (config) found.validate?.(config, diags);
    return {};
  });
}

/**
 * UpgradeResourceState: stored JSON state into a value of the current schema. A state of the
 * current version is decoded as it is; one of an earlier version is decoded with that version's
 * schema and handed to the resource's upgrade from it.
 */
export function upgradeResourceState<TContext>(
  scope: ServerScope<TContext>,
  req: UpgradeResourceStateRequest,
): Promise<UpgradeResourceStateResponse> {
  return runCall<UpgradeResourceStateResponse, TContext>(scope, callInfo(scope, req.typeName, 'upgradeState', req.signal), {}, async (diags) => {
    const found = requireResource(scope, req.typeName, diags);
    const schemaVersion = found.schema.version ?? 0;
    if (req.version > schemaVersion) {
      diags.error(
        'Resource state from a newer provider',
        `The state of this ${found.typeName} was written with schema version ${req.version}, but this provider knows ` +
          `only versions up to ${schemaVersion}. Use the provider version that wrote the state, or a newer one.`,
      );
      throw new Abort();
    }
    const upgrade = req.version < schemaVersion ? found.stateUpgrades?.[req.version] : undefined;
    if (req.version < schemaVersion && !upgrade) {
      diags.error(
        'Resource state too old',
        `The state of this ${found.typeName} was written with schema version ${req.version}, which this provider cannot ` +
          `upgrade to version ${schemaVersion}. Remove it from state (terraform state rm) and import it again.`,
      );
      throw new Abort();
    }
    const json = req.rawState?.json;
    if (!json || json.length === 0) {
      diags.error(
        'Unsupported resource state format',
        `The state of this ${found.typeName} is not in JSON form (legacy flatmap state). Remove it from state and import it again.`,
      );
      throw new Abort();
    }
    const storedSchema = upgrade?.priorSchema ?? found.schema;
    let value: TerraformValue;
    try {
      value = decodeJsonValue(JSON.parse(json.toString('utf8')), schemaObjectType(storedSchema));
    } catch (error) {
      diags.error('Unreadable resource state', `The stored state of this ${found.typeName} does not match its schema version ${req.version}: ${(error as Error).message}.`);
      throw new Abort();
    }
    let state = value as ObjectValue | null;
    if (upgrade && state !== null) {
      state = upgrade.upgrade(state, diags);
      if (diags.hasErrors()) throw new Abort();
    }
    return { upgradedState: encodeObject(withoutWriteOnly(found.schema, state), found.schema, diags, 'upgraded state') };
  });
}

/**
 * ReadResource (refresh): null means the object is gone; on error (reported, thrown, or the call
 * aborted) the current state is kept.
 */
export function readResource<TContext>(scope: ServerScope<TContext>, req: ReadResourceRequest): Promise<ReadResourceResponse> {
  const unchanged = { newState: req.currentState, private: req.private };
  return runCall<ReadResourceResponse, TContext>(scope, callInfo(scope, req.typeName, 'read', req.signal), unchanged, async (diags) => {
    const found = requireResource(scope, req.typeName, diags);
    const state = decodeObject(req.currentState, found.schema, diags, 'current state');
    if (state === null) return { newState: encodeObject(null, found.schema, diags, 'state'), private: req.private };
    const ctx = requireContext(scope, diags);
    const privateState = PrivateState.decode(req.private);
    const newState = await found.read(ctx, { state, private: privateState, signal: req.signal }, diags);
    if (diags.hasErrors()) return unchanged;
    const checked = newState === null ? null : checkKnown(withoutWriteOnly(found.schema, newState), found, diags, 'read');
    return { newState: encodeObject(checked, found.schema, diags, 'state'), private: newState === null ? undefined : privateState.encode() };
  });
}

/**
 * PlanResourceChange: the framework's plan, then the resource's modifications (`modifyPlan` for a
 * create or update, `planDestroy` for a destroy). The planned private data starts as the prior
 * object's. Write-only values are planned null (the resource finds them in `config`).
 */
export function planResourceChange<TContext>(scope: ServerScope<TContext>, req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
  return runCall<PlanResourceChangeResponse, TContext>(scope, callInfo(scope, req.typeName, 'plan', req.signal), { requiresReplace: [] }, async (diags) => {
    const found = requireResource(scope, req.typeName, diags);
    const prior = withoutWriteOnly(found.schema, decodeObject(req.priorState, found.schema, diags, 'prior state'));
    const proposed = withoutWriteOnly(found.schema, decodeObject(req.proposedNewState, found.schema, diags, 'proposed state'));
    const config = decodeObject(req.config, found.schema, diags, 'config');
    const plan = planChange(found.schema, prior, proposed, config);
    let plannedState = plan.plannedState;
    const requiresReplace = [...plan.requiresReplace];
    const privateState = PrivateState.decode(req.priorPrivate);
    if (plannedState === null && prior !== null && found.planDestroy) {
      await found.planDestroy(requireContext(scope, diags), { priorState: prior, signal: req.signal }, { private: privateState }, diags);
    }
    if (plannedState !== null && found.modifyPlan) {
      const modification: PlanModification = { plannedState, requiresReplace: [], private: privateState };
      await found.modifyPlan(
        requireContext(scope, diags),
        { config: config ?? {}, priorState: prior, plannedState: { ...plannedState }, signal: req.signal },
        modification,
        diags,
      );
      plannedState = withoutWriteOnly(found.schema, modification.plannedState);
      requiresReplace.push(...modification.requiresReplace);
    }
    return {
      plannedState: encodeObject(plannedState, found.schema, diags, 'planned state'),
      requiresReplace: uniquePaths(requiresReplace).map((path) => toPathSteps(path, found.schema)),
      plannedPrivate: privateState.encode(),
    };
  });
}

/**
 * ApplyResourceChange: create, update or delete. Whatever state the resource returns is sent back
 * even with error diagnostics (Terraform keeps partial state: a create that made the object but
 * failed later must not lose it); an update returning nothing keeps the prior state, a failed
 * delete keeps the object.
 */
export function applyResourceChange<TContext>(
  scope: ServerScope<TContext>,
  req: ApplyResourceChangeRequest,
): Promise<ApplyResourceChangeResponse> {
  return runCall<ApplyResourceChangeResponse, TContext>(scope, callInfo(scope, req.typeName, 'apply', req.signal), {}, async (diags) => {
    const found = requireResource(scope, req.typeName, diags);
    const prior = decodeObject(req.priorState, found.schema, diags, 'prior state');
    const planned = decodeObject(req.plannedState, found.schema, diags, 'planned state');
    const config = decodeObject(req.config, found.schema, diags, 'config') ?? {};
    const ctx = requireContext(scope, diags);
    const { signal } = req;
    const privateState = PrivateState.decode(req.plannedPrivate);
    let newState: ObjectValue | null;
    if (planned === null) {
      if (prior === null) return { newState: encodeObject(null, found.schema, diags, 'state') };
      await found.delete(ctx, { priorState: prior, private: privateState, signal }, diags);
      // A failed delete leaves the object in place: keep it in state.
      newState = diags.hasErrors() ? prior : null;
    } else if (prior === null) {
      newState = await found.create(ctx, { plannedState: planned, config, private: privateState, signal }, diags);
      if (newState === null && !diags.hasErrors()) {
        diags.error('Provider returned no state', `${found.typeName}.create returned nothing. This is a bug in the provider.`);
      }
      if (newState !== null) newState = checkKnown(newState, found, diags, 'create');
    } else {
      newState = await found.update(ctx, { plannedState: planned, priorState: prior, config, private: privateState, signal }, diags);
      if (newState === null) {
        if (!diags.hasErrors()) {
          diags.error('Provider returned no state', `${found.typeName}.update returned nothing. This is a bug in the provider.`);
        }
        newState = prior; // the object still exists as it was
      } else {
        newState = checkKnown(newState, found, diags, 'update');
      }
    }
    // A failed delete keeps the object, with the private data it was planned with.
    const newPrivate = planned === null ? (newState === null ? undefined : req.plannedPrivate) : privateState.encode();
    return { newState: encodeObject(withoutWriteOnly(found.schema, newState), found.schema, diags, 'new state'), private: newPrivate };
  });
}

/** ImportResourceState: an import id into a state that Terraform then reads. */
export function importResourceState<TContext>(
  scope: ServerScope<TContext>,
  req: ImportResourceStateRequest,
): Promise<ImportResourceStateResponse> {
  return runCall<ImportResourceStateResponse, TContext>(scope, callInfo(scope, req.typeName, 'import', req.signal), { importedResources: [] }, async (diags) => {
    const found = requireResource(scope, req.typeName, diags);
    if (!found.importState) {
      diags.error('Resource import not supported', `${found.typeName} cannot be imported: declare it in configuration instead.`);
      throw new Abort();
    }
    const privateState = PrivateState.decode(undefined);
    const state = await found.importState(requireContext(scope, diags), { id: req.id, private: privateState, signal: req.signal }, diags);
    if (diags.hasErrors()) return { importedResources: [] };
    if (state === null) {
      diags.error('Cannot import non-existent remote object', `No ${found.typeName} exists with the id ${JSON.stringify(req.id)}.`);
      return { importedResources: [] };
    }
    const checked = checkKnown(withoutWriteOnly(found.schema, state), found, diags, 'importState');
    const imported = { typeName: found.typeName, state: encodeObject(checked, found.schema, diags, 'imported state') };
    const importedPrivate = privateState.encode();
    return { importedResources: [importedPrivate ? { ...imported, private: importedPrivate } : imported] };
  });
}
