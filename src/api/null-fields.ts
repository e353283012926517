/**
 * The one rule about empty fields: on the wire an organization's `displayName` and `url`, a
 * member's `email`, `firstName` and `lastName`, and a role's `description` are left out when they
 * have no value (the real service does so, and the vendor spec types them as plain strings); in
 * memory they are `null`.
 * The service converts with the `…ToWire` functions before answering, the SDK with the
 * `…FromWire` functions after checking an answer, so nobody else tests for a missing field.
 */
import type { Member, MemberRepresentation, Organization, OrganizationRepresentation, Role, RoleRepresentation } from './representations';

/** The fields that are left out on the wire when they have no value. */
const OPTIONAL_STRING_FIELDS = ['displayName', 'url', 'email', 'firstName', 'lastName', 'description'] as const;

/**
 * A tolerant reader's first step: an answer (an object, or an array of objects) with these fields
 * set to `null` (as an older orgadmin service or another implementation may send them) is read as
 * if they were left out. Anything else is returned unchanged, for the schema check to judge.
 */
export function dropNullFields(body: unknown): unknown {
  const clean = (item: unknown): unknown => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const record = item as Record<string, unknown>;
    if (!OPTIONAL_STRING_FIELDS.some((field) => record[field] === null)) return item;
    const copy = { ...record };
    for (const field of OPTIONAL_STRING_FIELDS) if (copy[field] === null) delete copy[field];
    return copy;
  };
  return Array.isArray(body) ? body.map(clean) : clean(body);
}

/** `{ [name]: value }` when the value is a string, `{}` when it is null or absent. */
function present<K extends string>(name: K, value: string | null | undefined): { [P in K]?: string } {
  return (typeof value === 'string' ? { [name]: value } : {}) as { [P in K]?: string };
}

/** An organization as the service sends it: null fields left out. */
export function organizationToWire(org: Organization): OrganizationRepresentation {
  return {
    id: org.id,
    name: org.name,
    ...present('displayName', org.displayName),
    ...present('url', org.url),
    domains: org.domains,
    attributes: org.attributes,
    realm: org.realm,
  };
}

/** An organization as the SDK returns it: fields the wire left out are `null`. */
export function organizationFromWire(rep: OrganizationRepresentation): Organization {
  return { ...rep, displayName: rep.displayName ?? null, url: rep.url ?? null };
}

/** A member as the service sends it: null fields left out (`organizations` kept when filled). */
export function memberToWire(member: Member): MemberRepresentation {
  return {
    id: member.id,
    username: member.username,
    ...present('email', member.email),
    ...present('firstName', member.firstName),
    ...present('lastName', member.lastName),
    emailVerified: member.emailVerified,
    enabled: member.enabled,
    createdTimestamp: member.createdTimestamp,
    ...(member.organizations !== undefined ? { organizations: member.organizations } : {}),
  };
}

/** A member as the SDK returns it: fields the wire left out are `null`. */
export function memberFromWire(rep: MemberRepresentation): Member {
  return { ...rep, email: rep.email ?? null, firstName: rep.firstName ?? null, lastName: rep.lastName ?? null };
}

/** A role as the service sends it: no description left out. */
export function roleToWire(role: Role): RoleRepresentation {
  return { id: role.id, name: role.name, ...present('description', role.description) };
}

/** A role as the SDK returns it: a description the wire left out is `null`. */
export function roleFromWire(rep: RoleRepresentation): Role {
  return { id: rep.id, name: rep.name, description: rep.description ?? null };
}
