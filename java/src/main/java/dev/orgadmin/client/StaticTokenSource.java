package dev.orgadmin.client;

/**
 * A token you already have (e.g. a user's access token from elsewhere). It is never refreshed, so a
 * 401 is final. {@link #toString()} does not show the token.
 */
public final class StaticTokenSource implements TokenSource {
    private final String accessToken;

    /**
     * @param accessToken the bearer token to send; not empty
     */
    public StaticTokenSource(String accessToken) {
        if (accessToken == null || accessToken.isEmpty()) {
            throw new IllegalArgumentException("StaticTokenSource needs a non-empty access token");
        }
        this.accessToken = accessToken;
    }

    /**
     * @return the token given to the constructor, for every realm
     */
    @Override
    public String getToken(String realm) {
        return accessToken;
    }

    /** Nothing to forget: the token is all this source has. */
    @Override
    public void invalidate(String realm, String token) {
        // Intentionally empty: a static token cannot be refreshed.
    }

    @Override
    public String toString() {
        return "StaticTokenSource{token=[redacted]}";
    }
}
