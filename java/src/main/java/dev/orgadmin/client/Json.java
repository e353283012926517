package dev.orgadmin.client;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON (RFC 8259) reader and writer, so the SDK needs no JSON library. Values are plain Java
 * objects: {@code Map<String, Object>} (insertion-ordered), {@code List<Object>}, {@code String},
 * {@code Long} for integers that fit, {@code Double} for other numbers, {@code Boolean} and
 * {@code null}. The reader is strict: trailing commas, comments, single quotes, leading zeros and
 * text after the value are errors.
 */
final class Json {
    /** Nesting beyond this is refused rather than risking a stack overflow on hostile input. */
    private static final int MAX_DEPTH = 256;

    private Json() {
    }

    /** Thrown for text that is not JSON; the message says where. */
    static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;

        ParseException(String message) {
            super(message);
        }
    }

    /** Reads one JSON value that spans all of {@code text} (whitespace around it allowed). */
    static Object parse(String text) throws ParseException {
        Reader reader = new Reader(text);
        reader.skipWhitespace();
        Object value = reader.readValue(0);
        reader.skipWhitespace();
        if (reader.pos != text.length()) throw reader.error("unexpected text after the value");
        return value;
    }

    /** Writes {@code value} (the types listed in the class comment; any {@link Number}) as compact JSON. */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        writeValue(out, value);
        return out.toString();
    }

    private static void writeValue(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            writeString(out, (String) value);
        } else if (value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("JSON cannot express " + d);
            if (d == Math.rint(d) && Math.abs(d) < 1e15) out.append((long) d);
            else out.append(d);
        } else if (value instanceof Number) {
            out.append(value);
        } else if (value instanceof Map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> entries = ((Map<?, ?>) value).entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<?, ?> entry = entries.next();
                writeString(out, String.valueOf(entry.getKey()));
                out.append(':');
                writeValue(out, entry.getValue());
                if (entries.hasNext()) out.append(',');
            }
            out.append('}');
        } else if (value instanceof Iterable) {
            out.append('[');
            Iterator<?> items = ((Iterable<?>) value).iterator();
            while (items.hasNext()) {
                writeValue(out, items.next());
                if (items.hasNext()) out.append(',');
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("cannot write a " + value.getClass().getName() + " as JSON");
        }
    }

    private static void writeString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    // Control characters must be escaped; U+2028/2029 are escaped so the output is
                    // also safe inside JavaScript source.
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        out.append('"');
    }

    /** A cursor over the text. */
    private static final class Reader {
        private final String text;
        private int pos;

        Reader(String text) {
            this.text = text;
        }

        ParseException error(String what) {
            return new ParseException("invalid JSON at offset " + pos + ": " + what);
        }

        void skipWhitespace() {
            while (pos < text.length()) {
                char c = text.charAt(pos);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') pos++;
                else break;
            }
        }

        Object readValue(int depth) throws ParseException {
            if (depth > MAX_DEPTH) throw error("nested deeper than " + MAX_DEPTH);
            if (pos >= text.length()) throw error("unexpected end of text");
            char c = text.charAt(pos);
            switch (c) {
                case '{': return readObject(depth);
                case '[': return readArray(depth);
                case '"': return readString();
                case 't': return readLiteral("true", Boolean.TRUE);
                case 'f': return readLiteral("false", Boolean.FALSE);
                case 'n': return readLiteral("null", null);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return readNumber();
                    throw error("unexpected character '" + c + "'");
            }
        }

        private Object readLiteral(String word, Object value) throws ParseException {
            if (!text.startsWith(word, pos)) throw error("expected " + word);
            pos += word.length();
            return value;
        }

        private Map<String, Object> readObject(int depth) throws ParseException {
            Map<String, Object> map = new LinkedHashMap<>();
            pos++; // '{'
            skipWhitespace();
            if (pos < text.length() && text.charAt(pos) == '}') {
                pos++;
                return map;
            }
            for (;;) {
                skipWhitespace();
                if (pos >= text.length() || text.charAt(pos) != '"') throw error("expected a member name");
                String key = readString();
                skipWhitespace();
                expect(':');
                skipWhitespace();
                map.put(key, readValue(depth + 1));
                skipWhitespace();
                if (pos >= text.length()) throw error("unexpected end of text in an object");
                char c = text.charAt(pos++);
                if (c == '}') return map;
                if (c != ',') {
                    pos--;
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> readArray(int depth) throws ParseException {
            List<Object> list = new ArrayList<>();
            pos++; // '['
            skipWhitespace();
            if (pos < text.length() && text.charAt(pos) == ']') {
                pos++;
                return list;
            }
            for (;;) {
                skipWhitespace();
                list.add(readValue(depth + 1));
                skipWhitespace();
                if (pos >= text.length()) throw error("unexpected end of text in an array");
                char c = text.charAt(pos++);
                if (c == ']') return list;
                if (c != ',') {
                    pos--;
                    throw error("expected ',' or ']'");
                }
            }
        }

        private void expect(char wanted) throws ParseException {
            if (pos >= text.length() || text.charAt(pos) != wanted) throw error("expected '" + wanted + "'");
            pos++;
        }

        private String readString() throws ParseException {
            pos++; // opening quote
            StringBuilder out = new StringBuilder();
            for (;;) {
                if (pos >= text.length()) throw error("unterminated string");
                char c = text.charAt(pos++);
                if (c == '"') return out.toString();
                if (c < 0x20) {
                    pos--;
                    throw error("control character in a string");
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (pos >= text.length()) throw error("unterminated escape");
                char e = text.charAt(pos++);
                switch (e) {
                    case '"': out.append('"'); break;
                    case '\\': out.append('\\'); break;
                    case '/': out.append('/'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'n': out.append('\n'); break;
                    case 'r': out.append('\r'); break;
                    case 't': out.append('\t'); break;
                    case 'u':
                        if (pos + 4 > text.length()) throw error("short \\u escape");
                        int code = 0;
                        for (int i = 0; i < 4; i++) {
                            int digit = Character.digit(text.charAt(pos + i), 16);
                            if (digit < 0) throw error("bad \\u escape");
                            code = code * 16 + digit;
                        }
                        pos += 4;
                        // Surrogate pairs arrive as two escapes; appending both chars rebuilds them.
                        out.append((char) code);
                        break;
                    default:
                        pos--;
                        throw error("bad escape \\" + e);
                }
            }
        }

        private Object readNumber() throws ParseException {
            int start = pos;
            if (text.charAt(pos) == '-') pos++;
            if (pos >= text.length()) throw error("bad number");
            if (text.charAt(pos) == '0') {
                pos++;
            } else if (text.charAt(pos) >= '1' && text.charAt(pos) <= '9') {
                skipDigits();
            } else {
                throw error("bad number");
            }
            boolean integral = true;
            if (pos < text.length() && text.charAt(pos) == '.') {
                integral = false;
                pos++;
                int digits = skipDigits();
                if (digits == 0) throw error("bad number: no digits after '.'");
            }
            if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
                integral = false;
                pos++;
                if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) pos++;
                if (skipDigits() == 0) throw error("bad number: no digits in the exponent");
            }
            String literal = text.substring(start, pos);
            if (integral) {
                try {
                    return Long.parseLong(literal);
                } catch (NumberFormatException tooBig) {
                    return new BigDecimal(literal).doubleValue();
                }
            }
            return Double.parseDouble(literal);
        }

        private int skipDigits() {
            int start = pos;
            while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') pos++;
            return pos - start;
        }
    }
}
