package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;

/** Typed view of ApiVersions request bodies of every version; fields a version lacks read as their defaults. */
public final class ApiVersionsRequestView {
    static final StructSchema SCHEMA = ApiKey.API_VERSIONS.request().body();
    private static final int CLIENT_SOFTWARE_NAME = SCHEMA.indexOf("ClientSoftwareName");
    private static final int CLIENT_SOFTWARE_VERSION = SCHEMA.indexOf("ClientSoftwareVersion");
    private static final int CLUSTER_ID = SCHEMA.indexOf("ClusterId");
    private static final int NODE_ID = SCHEMA.indexOf("NodeId");

    private final Struct struct;

    public ApiVersionsRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public ApiVersionsRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String clientSoftwareName() {
        return (String) struct.get(CLIENT_SOFTWARE_NAME);
    }

    public ApiVersionsRequestView clientSoftwareName(String value) {
        struct.set(CLIENT_SOFTWARE_NAME, value);
        return this;
    }

    public String clientSoftwareVersion() {
        return (String) struct.get(CLIENT_SOFTWARE_VERSION);
    }

    public ApiVersionsRequestView clientSoftwareVersion(String value) {
        struct.set(CLIENT_SOFTWARE_VERSION, value);
        return this;
    }

    public String clusterId() {
        return (String) struct.get(CLUSTER_ID);
    }

    public ApiVersionsRequestView clusterId(String value) {
        struct.set(CLUSTER_ID, value);
        return this;
    }

    public int nodeId() {
        return (Integer) struct.get(NODE_ID);
    }

    public ApiVersionsRequestView nodeId(int value) {
        struct.set(NODE_ID, value);
        return this;
    }
}
