package io.minibroker.broker.api;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The one table of what this broker advertises: for each API it implements, the version range and the handler.
 * ApiVersions answers from it and the request handler dispatches through it, so the broker never advertises an
 * API it does not implement, nor accepts one it did not advertise.
 */
public final class SupportedApis {

    /** An advertised API: the versions clients may use, and who handles them. */
    public record Entry(ApiKey api, short minVersion, short maxVersion, ApiHandler handler) {
        /** Whether this entry serves {@code version} (a test's cap aside: see {@link #lookup}). */
        public boolean accepts(short version) {
            return version >= minVersion && version <= maxVersion && api.supports(version);
        }
    }

    private final Map<ApiKey, Entry> entries = new EnumMap<>(ApiKey.class);
    /**
     * A test's caps on the versions advertised and accepted, by {@link ApiKey#ordinal()} (-1: none); null, the usual
     * case, when nothing is capped, so that a lookup pays one volatile read for the feature.
     */
    private volatile short[] versionCaps;

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
    public void wrapHandlers(BiFunction<ApiKey, ApiHandler, ApiHandler> step) {
        entries.replaceAll((api, entry) -> new Entry(api, entry.minVersion(), entry.maxVersion(),
                step.apply(api, entry.handler())));
    }

    /** The handler for this API and version, or null if the broker does not accept it. */
    public Entry lookup(short apiKey, short version) {
        ApiKey api = ApiKey.forId(apiKey);
        Entry entry = api == null ? null : entries.get(api);
        return entry != null && entry.accepts(version) && version <= maxVersion(entry) ? entry : null;
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
                    .maxVersion(maxVersion(entry));
        }
        return body;
    }

    /**
     * The answer to an ApiVersions of a version this broker does not know (KIP-511, as Kafka's
     * ApiVersionsRequest.getErrorResponse): UNSUPPORTED_VERSION with the ApiVersions range only, for the client to
     * retry at a version both know.
     */
    public ApiVersionsResponseView unsupportedApiVersions() {
        ApiVersionsResponseView body = new ApiVersionsResponseView().errorCode(Errors.UNSUPPORTED_VERSION.code());
        Entry entry = entries.get(ApiKey.API_VERSIONS);
        body.addApiKey().apiKey(entry.api().id()).minVersion(entry.minVersion()).maxVersion(maxVersion(entry));
        return body;
    }

    /**
     * Advertises and accepts {@code api} only up to {@code maxVersion} from now on, as an older broker would (a
     * request above it is refused as an unadvertised version is); a cap above the table's maximum changes nothing.
     */
    public synchronized void capVersion(ApiKey api, short maxVersion) {
        Entry entry = entries.get(api);
        if (entry == null) {
            throw new IllegalArgumentException(api + " is not served here");
        }
        if (maxVersion < entry.minVersion()) {
            throw new IllegalArgumentException(api + " cannot be capped below its lowest version " + entry.minVersion());
        }
        short[] caps = versionCaps == null ? newCaps() : versionCaps.clone();
        caps[api.ordinal()] = maxVersion;
        versionCaps = caps;
    }

    /** Lifts every cap: the table's own ranges again. */
    public synchronized void clearVersionCaps() {
        versionCaps = null;
    }

    /** The highest version of {@code entry} advertised and accepted now. */
    private short maxVersion(Entry entry) {
        short[] caps = versionCaps;
        if (caps == null || caps[entry.api().ordinal()] < 0) {
            return entry.maxVersion();
        }
        return (short) Math.min(entry.maxVersion(), caps[entry.api().ordinal()]);
    }

    private static short[] newCaps() {
        short[] caps = new short[ApiKey.values().length];
        Arrays.fill(caps, (short) -1);
        return caps;
    }
}
