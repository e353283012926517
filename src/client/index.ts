/**
 * The orgadmin SDK (`orgadmin/client`): a typed client of the Organization Administration
 * Service, its token sources and its errors.
 *
 * @example
 * import { OrgAdminClient, ClientCredentialsTokenSource, NotFoundError } from 'orgadmin/client';
 */
export * from './errors';
export * from './token-source';
export * from './client';
export type { SleepFunction, TimerFunction } from './transport';
