package io.minibroker.broker.api;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The one table of what this broker advertises: for each API it implements, the version range and the handler.
 * ApiVersions answers from it and the request handler dispatches through it, so the broker never advertises an
 * API it does not implement, nor accepts one it did not advertise.
 */
public final class SupportedApis {

    /** An advertised API: the versions clients may use, and who handles them. */
    public record Entry(ApiKey api, short minVersion, short maxVersion, ApiHandler handler) {
        boolean accepts(short version) {
            return version >= minVersion && version <= maxVersion && api.supports(version);
        }
    }

    private final Map<ApiKey, Entry> entries = new EnumMap<>(ApiKey.class);

    /** Advertises every version the codec supports (its stable range). */
    public SupportedApis add(ApiKey api, ApiHandler handler) {
        return add(api, api.lowestVersion(), api.highestStableVersion(), handler);
    }

    /** Adds an API; a table is built once, so an API added twice is a mistake in the building, refused. */
    public SupportedApis add(ApiKey api, short minVersion, short maxVersion, ApiHandler handler) {
        if (entries.putIfAbsent(api, new Entry(api, minVersion, maxVersion, handler)) != null) {
            throw new IllegalStateException(api + " is in the table already");
        }
        return this;
    }

    /**
     * Puts a step in front of every handler of the finished table (the authorizer's), given each API and its
     * handler, keeping the advertised versions.
     */
    public void wrapHandlers(java.util.function.BiFunction<ApiKey, ApiHandler, ApiHandler> step) {
        entries.replaceAll((api, entry) -> new Entry(api, entry.minVersion(), entry.maxVersion(),
                step.apply(api, entry.handler())));
    }

    /** The handler for this API and version, or null if the broker does not accept it. */
    public Entry lookup(short apiKey, short version) {
        for (Entry entry : entries.values()) {
            if (entry.api().id() == apiKey) {
                return entry.accepts(version) ? entry : null;
            }
        }
        return null;
    }

    public Map<ApiKey, Entry> entries() {
        return Collections.unmodifiableMap(entries);
    }

    /** Fills an ApiVersions response body (any version) with the advertised ranges. */
    public ApiVersionsResponseView fillApiVersions(ApiVersionsResponseView body, Errors error) {
        body.errorCode(error.code());
        for (Entry entry : entries.values()) {
            body.addApiKey()
                    .apiKey(entry.api().id())
                    .minVersion(entry.minVersion())
                    .maxVersion(entry.maxVersion());
        }
        return body;
    }
}
