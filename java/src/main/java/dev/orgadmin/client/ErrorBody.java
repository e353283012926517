package dev.orgadmin.client;

import java.util.Map;

/**
 * What an error answer's body said: the service's {@code {"error","error_description"}} when it is
 * one, otherwise a short single-line excerpt of whatever came back (a proxy's HTML page, plain text).
 *
 * @param error the {@code error} code, or null
 * @param description the {@code error_description}, or the excerpt, or null
 */
record ErrorBody(String error, String description) {
    /** Longest excerpt of a non-JSON error body kept in an exception. */
    private static final int EXCERPT_LENGTH = 200;

    static ErrorBody read(String text) {
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty()) return new ErrorBody(null, null);
        try {
            Object parsed = Json.parse(trimmed);
            if (parsed instanceof Map) {
                Object error = ((Map<?, ?>) parsed).get("error");
                Object description = ((Map<?, ?>) parsed).get("error_description");
                if (error instanceof String || description instanceof String) {
                    return new ErrorBody(error instanceof String ? (String) error : null,
                            description instanceof String ? (String) description : null);
                }
            }
        } catch (Json.ParseException notJson) {
            // Not JSON: fall through to the excerpt.
        }
        String oneLine = trimmed.replaceAll("\\s+", " ");
        return new ErrorBody(null, oneLine.length() > EXCERPT_LENGTH ? oneLine.substring(0, EXCERPT_LENGTH) + "…" : oneLine);
    }

    /** The same body with every occurrence of each secret replaced, so an echoing server cannot leak one. */
    ErrorBody redacted(String... secrets) {
        return new ErrorBody(redact(error, secrets), redact(description, secrets));
    }

    static String redact(String text, String... secrets) {
        if (text == null) return null;
        String out = text;
        for (String secret : secrets) {
            if (secret != null && !secret.isEmpty()) out = out.replace(secret, "[redacted]");
        }
        return out;
    }
}
