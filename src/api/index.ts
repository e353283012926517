/**
 * The wire contract of the Organization Administration Service (docs/guides/service.md) as code:
 * representations, permission names, error codes and path builders. Shared by the service, the
 * SDK and the provider; nothing else is shared between them.
 */
export * from './permissions';
export * from './errors';
export * from './paths';
export * from './oidc-paths';
export * from './representations';
export * from './null-fields';
export * from './validation';
export * from './roles';
export * from './attribute-query';
export * from './events';
export * from './webhooks';
export * from './org-transfer';
export * from './domains';
export * from './identity-providers';
