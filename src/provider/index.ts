/**
 * The orgadmin Terraform provider: its definition (served by `main.ts`, installed by
 * `orgadmin provider install`, rendered into docs and CDKTF bindings) and its identity.
 */
export {
  orgadminProvider,
  createOrgAdminProvider,
  providerSchema,
  validateProviderConfig,
  resolveProviderSettings,
  PROVIDER_SOURCE_ADDRESS,
  PROVIDER_TYPE_NAME,
  PROVIDER_ENVIRONMENT_VARIABLES,
} from './provider';
export type { OrgAdminProviderOptions, ProviderSettings, ProviderSettingName, Environment } from './provider';
export type { OrgAdminProviderContext, AuthMethod } from './context';
