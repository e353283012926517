package dev.orgadmin.client;

import java.net.URI;
import java.net.URISyntaxException;

/** Checks and joins the service's base address (origin plus optional path prefix). */
final class BaseUrl {
    private BaseUrl() {
    }

    /** The base address without a trailing slash; http or https, no query or fragment. */
    static URI check(URI baseUrl, String who) {
        if (baseUrl == null) throw new NullPointerException(who + ": baseUrl must not be null");
        String scheme = baseUrl.getScheme();
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException(who + ": baseUrl must be http or https, got " + scheme);
        }
        if (baseUrl.getHost() == null) throw new IllegalArgumentException(who + ": baseUrl has no host");
        if (baseUrl.getRawQuery() != null || baseUrl.getRawFragment() != null) {
            throw new IllegalArgumentException(who + ": baseUrl must not have a query or fragment");
        }
        String path = baseUrl.getRawPath() == null ? "" : baseUrl.getRawPath().replaceAll("/+$", "");
        try {
            return new URI(baseUrl.getScheme() + "://" + baseUrl.getRawAuthority() + path);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(who + ": baseUrl is not a URL", e);
        }
    }

    /** {@code base} + {@code pathAndQuery} (already encoded). */
    static URI resolve(URI base, String pathAndQuery) {
        return URI.create(base.toString() + pathAndQuery);
    }

    /** For messages: the base address without any user:password part. */
    static String withoutUserInfo(URI base) {
        return base.getRawUserInfo() == null ? base.toString() : base.toString().replace(base.getRawUserInfo() + "@", "");
    }
}
