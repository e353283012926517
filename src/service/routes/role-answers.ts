/**
 * Answers shared by the two route files of organization roles (roles.ts, organized by organization,
 * and member-roles.ts, organized by user): the 207 Multi-Status answer of the bulk operations and
 * the refusals of a grant or revoke, each worded once.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BulkResult } from '../../api';
import { requestUrlOf, type ServiceContext } from '../context';
import { notFound, ServiceError } from '../errors';
import type { MemberRolesChange } from '../store/store';

/** HTTP 207 Multi-Status: the bulk operations' answer, one entry per entry of the request. */
export const MULTI_STATUS = 207;

/** The sentence for a role the organization does not have. */
export const noRole = (orgId: string, name: string): string => `Organization ${orgId} has no role ${name}.`;

/**
 * The answer to a grant or revoke the store did not carry out: 404 for an unknown organization or
 * user, 400 `not_member` for a user who is not a member (`what`: "granted a role", "granted roles").
 */
export function memberRolesRefusal(kind: Exclude<MemberRolesChange['kind'], 'done'>, orgId: string, userId: string, what: string): ServiceError {
  switch (kind) {
    case 'no-organization':
      return notFound(`Organization ${orgId} does not exist.`);
    case 'no-user':
      return notFound(`User ${userId} does not exist.`);
    case 'not-member':
      return new ServiceError(400, 'not_member', `User ${userId} must be a member of organization ${orgId} to be ${what}.`);
  }
}

/** A 207 answer with `Location` = the request's URL, as the hosted service sends it. */
export function multiStatus(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply, results: BulkResult[]): FastifyReply {
  return reply.status(MULTI_STATUS).header('Location', requestUrlOf(request, ctx)).send(results);
}
