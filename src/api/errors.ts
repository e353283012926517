/**
 * Error codes the service returns in `{"error": "<code>", "error_description": "<sentence>"}`.
 *
 * The set is closed: the SDK switches on it and the provider maps each code to advice.
 * OAuth codes (RFC 6749 §5.2, RFC 6750 §3.1) keep their standard spelling.
 */
export const ERROR_CODES = [
  // Token endpoint (RFC 6749 §5.2) and realm state.
  'invalid_request',
  'unsupported_grant_type',
  'invalid_client',
  'unauthorized_client',
  'invalid_grant',
  'invalid_scope',
  'access_denied',
  // Bearer tokens (RFC 6750 §3.1).
  'invalid_token',
  'insufficient_scope',
  // Addressing.
  'realm_not_found',
  'realm_mismatch',
  'not_found',
  'method_not_allowed',
  // A path of the real service's API that this service does not implement (404).
  'operation_not_supported',
  // Input.
  'invalid_body',
  'invalid_query',
  'unsupported_media_type',
  'payload_too_large',
  'conflict',
  'forbidden',
  // A role granted to a user who is not a member of the role's organization (400).
  'not_member',
  // Limits and failures.
  'rate_limited',
  'internal_error',
  // The service cannot reach its database for now (503 with Retry-After; the OAuth spelling, RFC 6749 §4.1.2.1).
  'temporarily_unavailable',
] as const;

/** One error code from {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The JSON body of every error answer. */
export interface ErrorBody {
  /** A stable, machine-readable code. */
  error: ErrorCode | string;
  /** One human sentence; never contains secrets or internals. */
  error_description: string;
}

/** True when `value` looks like an {@link ErrorBody}. */
export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { error?: unknown }).error === 'string' &&
    typeof (value as { error_description?: unknown }).error_description === 'string'
  );
}
