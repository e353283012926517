/**
 * orgadmin: organizations and memberships as code. The package root is the SDK (the same as
 * `orgadmin/client`). The other parts have their own entry points, loaded only by those who use
 * them: `orgadmin/constructs` (CDK for Terraform), `orgadmin/cdktn` (CDK Terrain),
 * `orgadmin/service` (needs the orgadmin-service package) and `orgadmin/api`.
 */
export * from './client';
