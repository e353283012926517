package dev.orgadmin.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * Where the real service is, for the integration tests and the cross-check: environment variables
 * set by the harness that started it (test/java/java-sdk.test.ts). A missing variable is a clear
 * failure, never a silent skip.
 */
final class ItConfig {
    private ItConfig() {
    }

    static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException(name + " is not set: the integration tests run against a service started by "
                    + "test/java/java-sdk.test.ts (npx jest test/java/java-sdk.test.ts)");
        }
        return value;
    }

    static URI baseUrl() {
        return URI.create(env("ORGADMIN_IT_BASE_URL"));
    }

    static String realm() {
        return env("ORGADMIN_IT_REALM");
    }

    /** A token source of the API key that holds every permission. */
    static ClientCredentialsTokenSource adminTokens() {
        return new ClientCredentialsTokenSource(baseUrl(), env("ORGADMIN_IT_CLIENT_ID"), env("ORGADMIN_IT_CLIENT_SECRET"));
    }

    /** A user's access token from the password grant of the public client (what an end user holds). */
    static String userToken(String username, String password) throws Exception {
        String form = ApiPaths.form(Map.of("grant_type", "password", "client_id", "admin-cli", "username", username, "password", password));
        HttpRequest request = HttpRequest.newBuilder(BaseUrl.resolve(baseUrl(), ApiPaths.token(realm())))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        Object token = ((Map<?, ?>) Json.parse(response.body())).get("access_token");
        if (!(token instanceof String)) throw new IllegalStateException("password grant failed: " + response.statusCode());
        return (String) token;
    }
}
