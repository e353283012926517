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
/** What a webhook receiver needs: the signature header and its check, and the event's type. */
export { WEBHOOK_SIGNATURE_HEADER, verifyWebhookSignature, type EventRepresentation, type WebhookRepresentation, type WebhookSendRepresentation } from '../api';
