package dev.orgadmin.client;

/** How {@link ClientCredentialsTokenSource} presents the API key to the token endpoint (RFC 6749 §2.3.1). */
public enum ClientAuthentication {
    /** {@code client_id} and {@code client_secret} as form fields ({@code client_secret_post}); the default. */
    FORM,
    /** {@code Authorization: Basic base64(urlencode(id):urlencode(secret))} ({@code client_secret_basic}). */
    BASIC
}
