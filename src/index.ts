/**
 * orgadmin: organizations and memberships as code. The package's public API is what this module
 * exports by name; each part adds its own line.
 */
export * from './client';
/** CDK for Terraform constructs (also available as `orgadmin/constructs`). */
export * as constructs from './constructs';
