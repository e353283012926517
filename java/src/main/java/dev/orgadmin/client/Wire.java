package dev.orgadmin.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads typed fields out of parsed JSON and reports a wrong shape with a {@link ShapeException},
 * which the client turns into an {@link UnexpectedResponseException} naming the request.
 */
final class Wire {
    private Wire() {
    }

    /** A body that parsed but does not have the documented shape. */
    static final class ShapeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ShapeException(String message) {
            super(message);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value, String what) {
        if (!(value instanceof Map)) throw new ShapeException("expected " + what + " to be a JSON object");
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object value, String what) {
        if (!(value instanceof List)) throw new ShapeException("expected " + what + " to be a JSON array");
        return (List<Object>) value;
    }

    /** A required string field. */
    static String string(Map<String, Object> map, String key) {
        Object value = map.get(key);
        if (!(value instanceof String)) throw new ShapeException("expected \"" + key + "\" to be a string");
        return (String) value;
    }

    /** A string field that may be null or absent. */
    static String nullableString(Map<String, Object> map, String key) {
        Object value = map.get(key);
        if (value == null) return null;
        if (!(value instanceof String)) throw new ShapeException("expected \"" + key + "\" to be a string or null");
        return (String) value;
    }

    static boolean bool(Map<String, Object> map, String key) {
        Object value = map.get(key);
        if (!(value instanceof Boolean)) throw new ShapeException("expected \"" + key + "\" to be a boolean");
        return (Boolean) value;
    }

    /** A number field, read as a whole number (timestamps in milliseconds). */
    static long integer(Map<String, Object> map, String key) {
        Object value = map.get(key);
        if (!(value instanceof Number)) throw new ShapeException("expected \"" + key + "\" to be a number");
        return ((Number) value).longValue();
    }

    /** A number field that may be null or absent, read as a whole number. */
    static Long nullableInteger(Map<String, Object> map, String key) {
        Object value = map.get(key);
        if (value == null) return null;
        if (!(value instanceof Number)) throw new ShapeException("expected \"" + key + "\" to be a number or null");
        return ((Number) value).longValue();
    }

    /** A boolean field that may be null or absent (read as false): fields the hosted service may leave out. */
    static boolean optionalBool(Map<String, Object> map, String key) {
        Object value = map.get(key);
        if (value == null) return false;
        if (!(value instanceof Boolean)) throw new ShapeException("expected \"" + key + "\" to be a boolean");
        return (Boolean) value;
    }

    /** An object of string values ({@code config}, {@code details}); absent reads as empty. Unmodifiable. */
    static Map<String, String> stringMap(Map<String, Object> map, String key) {
        Object value = map.get(key);
        if (value == null) return Collections.emptyMap();
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : object(value, "\"" + key + "\"").entrySet()) {
            if (!(entry.getValue() instanceof String)) throw new ShapeException("expected \"" + key + "." + entry.getKey() + "\" to be a string");
            out.put(entry.getKey(), (String) entry.getValue());
        }
        return Collections.unmodifiableMap(out);
    }

    /** A copy of a map of strings with no null key or value, for inputs. Unmodifiable, order kept. */
    static Map<String, String> copyStringMap(Map<String, String> values, String what) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : values.entrySet()) {
            out.put(requireNonNull(entry.getKey(), what + " name"), requireNonNull(entry.getValue(), what + " \"" + entry.getKey() + "\""));
        }
        return Collections.unmodifiableMap(out);
    }

    /** A list of strings; absent or null reads as null. Unmodifiable. */
    static List<String> stringList(Map<String, Object> map, String key) {
        Object value = map.get(key);
        return value == null ? null : strings(value, "\"" + key + "\"");
    }

    /** A JSON array of strings, unmodifiable. */
    static List<String> strings(Object value, String what) {
        List<String> out = new ArrayList<>();
        for (Object item : array(value, what)) {
            if (!(item instanceof String)) throw new ShapeException("expected " + what + " to hold strings");
            out.add((String) item);
        }
        return Collections.unmodifiableList(out);
    }

    /** Attributes: string keys, each holding a list of strings; absent reads as empty. Unmodifiable. */
    static Map<String, List<String>> attributes(Map<String, Object> map, String key) {
        Object value = map.get(key);
        if (value == null) return Collections.emptyMap();
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : object(value, "\"" + key + "\"").entrySet()) {
            out.put(entry.getKey(), strings(entry.getValue(), "attribute \"" + entry.getKey() + "\""));
        }
        return Collections.unmodifiableMap(out);
    }

    /** A required text field of an input: {@code value} when set and not empty, else {@link NullPointerException} or {@link IllegalArgumentException} naming {@code what}. */
    static String requireText(String value, String what) {
        if (value == null) throw new NullPointerException(what + " must not be null");
        if (value.isEmpty()) throw new IllegalArgumentException(what + " must not be empty");
        return value;
    }

    /** A copy of attributes with unmodifiable lists, for inputs. */
    static Map<String, List<String>> copyAttributes(Map<String, List<String>> attributes) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> entry : attributes.entrySet()) {
            out.put(requireNonNull(entry.getKey(), "attribute name"), List.copyOf(requireNonNull(entry.getValue(), "attribute values")));
        }
        return Collections.unmodifiableMap(out);
    }

    private static <T> T requireNonNull(T value, String what) {
        if (value == null) throw new NullPointerException(what + " must not be null");
        return value;
    }
}
