package dev.orgadmin.client;

/**
 * Supplies access tokens per realm; the client asks before every attempt. Implementations must be
 * thread-safe.
 */
public interface TokenSource {
    /**
     * A valid access token for {@code realm}. Cheap when cached.
     *
     * @param realm the realm whose token is needed
     * @return the bearer token
     * @throws TokenException when the token endpoint refuses
     * @throws NetworkException when the token endpoint cannot be reached
     * @throws RequestTimeoutException when the token endpoint does not answer in time
     * @throws CancelledException when the calling thread is interrupted while it waits
     */
    String getToken(String realm);

    /**
     * The service rejected {@code token} (401): forget it, so the next {@link #getToken} fetches a
     * fresh one. Does nothing when the cache already holds another token (someone refreshed meanwhile).
     *
     * @param realm the realm of the token
     * @param token the rejected token
     */
    void invalidate(String realm, String token);
}
