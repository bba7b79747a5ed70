package io.minibroker.broker.control;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The controls' objects as the endpoint's JSON (docs/test-controls.md) and back: what {@link ControlsEndpoint}
 * reads and writes and {@link HttpControls} writes and reads, in one place so that both sides agree.
 */
final class ControlsJson {

    private ControlsJson() {
    }

    static ErrorRule errorRule(Map<String, Object> in) {
        ErrorRule rule = ErrorRule.answer(match(in).andApi(api(required(in, "api"))), error(required(in, "error")));
        if (in.containsKey("count")) {
            rule = rule.times((int) number(in, "count"));
        }
        return flag(in, "afterServing", false) ? rule.afterServing() : rule;
    }

    static Map<String, Object> json(ErrorRule rule) {
        Map<String, Object> out = json(rule.match());
        out.put("error", rule.error().name());
        out.put("count", rule.count());
        out.put("afterServing", rule.servedFirst());
        return out;
    }

    static RequestMatch match(Map<String, Object> in) {
        RequestMatch match = RequestMatch.any();
        if (text(in, "api") != null) {
            match = match.andApi(api(text(in, "api")));
        }
        if (text(in, "topic") != null) {
            match = match.topic(text(in, "topic"));
        }
        if (in.get("partition") != null) {
            match = match.partition((int) number(in, "partition"));
        }
        if (text(in, "group") != null) {
            match = match.group(text(in, "group"));
        }
        if (text(in, "clientId") != null) {
            match = match.clientId(text(in, "clientId"));
        }
        if (text(in, "connection") != null) {
            match = match.connection(text(in, "connection"));
        }
        return match;
    }

    static Map<String, Object> json(RequestMatch match) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("api", match.api() == null ? null : match.api().name());
        out.put("topic", match.topic());
        out.put("partition", match.partition());
        out.put("group", match.group());
        out.put("clientId", match.clientId());
        out.put("connection", match.connection());
        out.values().removeIf(value -> value == null);
        return out;
    }

    static Map<String, Object> json(InstalledRule installed) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", installed.id());
        out.putAll(json(installed.rule().match()));
        out.put("error", installed.rule().error().name());
        out.put("remaining", installed.remaining());
        out.put("afterServing", installed.rule().servedFirst());
        return out;
    }

    /** A rule as listed; its count is what it had left when listed. */
    static InstalledRule installedRule(Map<String, Object> in) {
        int remaining = (int) number(in, "remaining");
        ErrorRule rule = new ErrorRule(match(in), error(required(in, "error")), remaining,
                flag(in, "afterServing", false));
        return new InstalledRule(number(in, "id"), rule, remaining);
    }

    static Map<String, Object> json(LoggedRequest logged) {
        RequestFacts facts = logged.facts();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("api", facts.api().name());
        out.put("version", facts.version());
        out.put("clientId", facts.clientId());
        out.put("correlationId", facts.correlationId());
        out.put("connection", facts.connection());
        out.put("topics", facts.topics());
        out.put("groups", facts.groups());
        out.put("arrivalMs", logged.arrivalMs());
        out.put("answeredMs", logged.answeredMs());
        out.put("errors", logged.errors().stream().map(Errors::name).toList());
        return out;
    }

    @SuppressWarnings("unchecked")
    static LoggedRequest loggedRequest(Map<String, Object> in) {
        Map<String, List<Integer>> topics = new LinkedHashMap<>();
        ((Map<String, List<Number>>) in.get("topics")).forEach((topic, partitions) ->
                topics.put(topic, partitions.stream().map(Number::intValue).toList()));
        RequestFacts facts = new RequestFacts(api(required(in, "api")), (short) number(in, "version"),
                text(in, "clientId"), (int) number(in, "correlationId"), text(in, "connection"), topics,
                List.copyOf((List<String>) in.get("groups")));
        LoggedRequest logged = new LoggedRequest(facts, number(in, "arrivalMs"));
        long answeredMs = number(in, "answeredMs");
        if (answeredMs >= 0) {
            logged.answer(answeredMs, ((List<String>) in.get("errors")).stream().map(ControlsJson::error).toList());
        }
        return logged;
    }

    /** An API by Kafka's name ({@code OffsetCommit}) or the enum's ({@code OFFSET_COMMIT}), or by its key number. */
    static ApiKey api(String name) {
        if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
            ApiKey api = ApiKey.forId(Short.parseShort(name));
            if (api == null) {
                throw new IllegalArgumentException("no API with key " + name);
            }
            return api;
        }
        String wanted = squash(name);
        for (ApiKey api : ApiKey.values()) {
            if (squash(api.name()).equals(wanted)) {
                return api;
            }
        }
        throw new IllegalArgumentException("no API named " + name);
    }

    /** An error by Kafka's name ({@code NOT_LEADER_OR_FOLLOWER}) or code. */
    static Errors error(String name) {
        if (name.matches("-?\\d+")) {
            return Errors.forCode(Short.parseShort(name));
        }
        try {
            return Errors.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("no error named " + name);
        }
    }

    private static String squash(String name) {
        return name.replace("_", "").toUpperCase(Locale.ROOT);
    }

    static String text(Map<String, Object> in, String key) {
        Object value = in.get(key);
        return value == null ? null : String.valueOf(value);
    }

    static String required(Map<String, Object> in, String key) {
        String value = text(in, key);
        if (value == null) {
            throw new IllegalArgumentException("\"" + key + "\" is required");
        }
        return value;
    }

    static long number(Map<String, Object> in, String key) {
        Object value = in.get(key);
        if (value instanceof Number number) {
            return number.longValue();
        }
        if (value instanceof String string) {
            try {
                return Long.parseLong(string); // a query parameter
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("\"" + key + "\" must be a number");
            }
        }
        throw new IllegalArgumentException("\"" + key + "\" must be a number");
    }

    static boolean flag(Map<String, Object> in, String key, boolean absent) {
        Object value = in.get(key);
        return value == null ? absent : Boolean.parseBoolean(String.valueOf(value));
    }
}
