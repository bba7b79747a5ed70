package io.minibroker.broker.control;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonTest {

    @Test
    void readsWhatItWritesIncludingEscapes() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("text", "quote \" backslash \\ newline \n tab \t control \u0001 é");
        value.put("numbers", List.of(0L, -12L, 3.5));
        value.put("flags", List.of(true, false));
        value.put("nothing", null);
        value.put("nested", Map.of("empty", List.of(), "object", Map.of()));
        assertThat(Json.parse(Json.write(value))).isEqualTo(value);
    }

    @Test
    void readsUnicodeEscapesAndWhitespace() {
        assertThat(Json.parse(" { \"a\" : \"\\u0041\\/\" , \"b\" : [ 1 , 2e2 ] } "))
                .isEqualTo(Map.of("a", "A/", "b", List.of(1L, 200.0)));
    }

    @Test
    void refusesMalformedText() {
        for (String bad : List.of("", "{", "{\"a\" 1}", "[1,]", "\"open", "tru", "{} x", "{1: 2}", "\"\\u12\"")) {
            assertThatThrownBy(() -> Json.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
