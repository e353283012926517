/**
 * The configuration of the fault-tolerance tests and of `npm run bench:faults`, and the checks of
 * what it left in the service: organizations, per-user memberships and authoritative member sets,
 * and the orphans, duplicates and lost memberships counted against the service's own data.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Member } from '../../../src/api';
import type { OrgAdminClient } from '../../../src/client';

/** The shape of a scenario. */
export interface ScenarioShape {
  /** Organizations in all. */
  organizations: number;
  /** `orgadmin_membership` resources, spread over the organizations without a member set. */
  memberships: number;
  /** `orgadmin_organization_members` sets (each on its own organization). */
  memberSets: number;
  /** Users per member set. */
  setSize: number;
}

/** The configuration: 30 organizations, 150 memberships, 5 member sets of 20 users. */
export const FULL_SCENARIO: ScenarioShape = { organizations: 30, memberships: 150, memberSets: 5, setSize: 20 };

/** What a scenario declares, in service terms. */
export interface Scenario {
  /** The Terraform configuration (one `main.tf`). */
  config: string;
  /** Organization names. */
  names: string[];
  /** Every (organization name → user ids) that must be members. */
  members: Map<string, string[]>;
}

/** Users a scenario of `shape` needs. */
export function usersNeeded(shape: ScenarioShape): number {
  const plainOrgs = shape.organizations - shape.memberSets;
  return Math.max(Math.ceil(shape.memberships / Math.max(plainOrgs, 1)), shape.setSize * Math.min(shape.memberSets, 1), 1);
}

/** Builds the configuration for `shape` with `users` (at least {@link usersNeeded}). */
export function buildScenario(shape: ScenarioShape, users: readonly Member[], prefix = 'fault'): Scenario {
  const names = Array.from({ length: shape.organizations }, (_, i) => `${prefix}-org-${String(i).padStart(3, '0')}`);
  const setOrgs = names.slice(0, shape.memberSets);
  const plainOrgs = names.slice(shape.memberSets);
  const members = new Map<string, string[]>(names.map((name) => [name, []]));
  const memberships: Record<string, { org: string; user: string }> = {};
  for (let i = 0; i < shape.memberships; i++) {
    const org = plainOrgs[i % plainOrgs.length]!;
    const user = users[Math.floor(i / plainOrgs.length) % users.length]!.id;
    memberships[`${org}/${user}`] = { org, user };
    members.get(org)!.push(user);
  }
  const sets: Record<string, string[]> = {};
  for (const [index, org] of setOrgs.entries()) {
    const ids = Array.from({ length: shape.setSize }, (_, j) => users[(index + j) % users.length]!.id);
    sets[org] = ids;
    members.set(org, ids);
  }
  const config = `terraform {
  required_providers {
    orgadmin = { source = "orgadmin/orgadmin" }
  }
}

locals {
  names       = ${JSON.stringify(names)}
  memberships = ${JSON.stringify(memberships)}
  sets        = ${JSON.stringify(sets)}
}

resource "orgadmin_organization" "org" {
  for_each = toset(local.names)
  name     = each.key
}

resource "orgadmin_membership" "member" {
  for_each        = local.memberships
  organization_id = orgadmin_organization.org[each.value.org].id
  user_id         = each.value.user
}

resource "orgadmin_organization_members" "set" {
  for_each        = local.sets
  organization_id = orgadmin_organization.org[each.key].id
  user_ids        = each.value
}
`;
  return { config, names, members };
}

/** What a run left behind, counted against the service's own data. */
export interface ScenarioCheck {
  /** Organizations in the service that no resource in the state holds. */
  orphans: number;
  /** Organizations beyond one per declared name (a second organization for one resource). */
  duplicates: number;
  /** Declared memberships (per-user and in sets) that the service does not have. */
  lostMemberships: number;
  /** Declared organizations the service does not have. */
  missingOrganizations: number;
}

/**
 * Puts back a workspace's last whole local state after a `kill -9` that landed while Terraform was
 * writing it. Terraform's local backend rewrites `terraform.tfstate` in place, so such a kill can
 * leave a part of a file, which Terraform itself then refuses ("does not have a version
 * attribute"); no provider can help there. The recovery is an operator's: the backup Terraform
 * wrote before changing the state, or no state when there was none before. Returns whether it
 * was needed. An empty file needs nothing: Terraform reads it as no state.
 */
export async function recoverPartialLocalState(dir: string): Promise<boolean> {
  const file = join(dir, 'terraform.tfstate');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return false;
  }
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    // A part of a file: below.
  }
  const backup = await readFile(join(dir, 'terraform.tfstate.backup'), 'utf8').catch(() => '');
  if (backup.trim() === '') await rm(file);
  else await writeFile(file, backup);
  return true;
}

/** The organization ids recorded in a workspace's local state file. */
export async function stateOrganizationIds(dir: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(join(dir, 'terraform.tfstate'), 'utf8');
  } catch {
    return new Set();
  }
  // A terraform killed while it rewrote the state leaves an empty file, which Terraform reads as no state.
  if (text.trim() === '') return new Set();
  const state = JSON.parse(text) as { resources?: Array<{ type: string; instances: Array<{ attributes: { id?: string } }> }> };
  const ids = new Set<string>();
  for (const resource of state.resources ?? []) {
    if (resource.type !== 'orgadmin_organization') continue;
    for (const instance of resource.instances) if (instance.attributes.id) ids.add(instance.attributes.id);
  }
  return ids;
}

/** Compares the service with the scenario and the workspace's state. */
export async function checkScenario(client: OrgAdminClient, scenario: Scenario, stateDir: string): Promise<ScenarioCheck> {
  const orgs = await client.listAllOrganizations();
  const inState = await stateOrganizationIds(stateDir);
  const declared = new Set(scenario.names);
  const ours = orgs.filter((org) => declared.has(org.name));
  const byName = new Map<string, string>(ours.map((org) => [org.name, org.id]));
  let lostMemberships = 0;
  for (const [name, userIds] of scenario.members) {
    const orgId = byName.get(name);
    if (orgId === undefined) {
      lostMemberships += userIds.length;
      continue;
    }
    const live = new Set((await client.listAllMembers(orgId, { excludeAdminAccounts: true })).map((member) => member.id));
    lostMemberships += userIds.filter((id) => !live.has(id)).length;
  }
  return {
    orphans: ours.filter((org) => !inState.has(org.id)).length,
    duplicates: ours.length - byName.size,
    lostMemberships,
    missingOrganizations: scenario.names.filter((name) => !byName.has(name)).length,
  };
}
