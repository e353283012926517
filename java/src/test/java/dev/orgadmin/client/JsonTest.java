package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SDK's own JSON reader and writer. */
class JsonTest {
    @Test
    void readsEveryKindOfValue() throws Exception {
        Object value = Json.parse(" {\"s\":\"a\\\"b\\u00e9\\ud83d\\ude00\\n\",\"i\":-12,\"d\":1.5e2,\"t\":true,\"f\":false,\"n\":null,"
                + "\"a\":[1,[],{}],\"big\":12345678901234567890} ");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("s", "a\"bé😀\n");
        expected.put("i", -12L);
        expected.put("d", 150.0);
        expected.put("t", true);
        expected.put("f", false);
        expected.put("n", null);
        expected.put("a", Arrays.asList(1L, List.of(), Map.of()));
        expected.put("big", 1.2345678901234567E19);
        assertEquals(expected, value);
    }

    @Test
    void refusesWhatIsNotStrictJson() {
        for (String bad : new String[] {"", "[1,]", "{\"a\":1,}", "01", "1.", "'a'", "{a:1}", "[1] x", "\"\u0001\"", "tru", "[", "\"\\x\"", "-"}) {
            assertThrows(Json.ParseException.class, () -> Json.parse(bad), bad);
        }
        assertThrows(Json.ParseException.class, () -> Json.parse("[".repeat(300) + "]".repeat(300)));
    }

    @Test
    void writesAndReadsBack() throws Exception {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("name", "quote \" slash \\ tab \t control \u0001 line \u2028");
        value.put("list", List.of("x", 2L, true));
        value.put("none", null);
        value.put("whole", 3.0);
        String text = Json.write(value);
        assertEquals("{\"name\":\"quote \\\" slash \\\\ tab \\t control \\u0001 line \\u2028\",\"list\":[\"x\",2,true],\"none\":null,\"whole\":3}", text);
        value.put("whole", 3L);
        assertEquals(value, Json.parse(text));
    }
}
