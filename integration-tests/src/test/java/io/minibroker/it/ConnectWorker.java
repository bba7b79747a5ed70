package io.minibroker.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * One distributed Kafka Connect worker in this JVM, started as {@code connect-distributed.sh} starts it (its
 * {@code ConnectDistributed}), and driven through its REST API as a user's test setup drives it. Its REST server
 * listens on a free port of localhost.
 * <p>
 * Connect 4.3.1 calls kafka-clients classes that this module's 4.4.0 moved, so the worker's classes come from a
 * class loader of their own: this module's class path with the 4.3.1 kafka-clients in place of 4.4.0, and no parent
 * but the platform's. The test reaches the worker through reflection on that loader's classes and through REST.
 */
final class ConnectWorker implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ClassLoader CONNECT_CLASSES = connectClassLoader();

    /** The worker's {@code org.apache.kafka.connect.runtime.Connect}. */
    private final Object connect;
    private final URI rest;
    private final HttpClient http = HttpClient.newHttpClient();

    private ConnectWorker(Object connect) {
        this.connect = connect;
        Object restServer = call(connect, "rest");
        this.rest = (URI) call(restServer, "serverUrl");
    }

    /**
     * Starts a worker of the Connect cluster {@code groupId} on these brokers, with string converters, its three
     * internal topics named after the group and replicated once, and {@code overrides} on top.
     */
    static ConnectWorker start(String bootstrapServers, String groupId, Map<String, String> overrides) {
        Map<String, String> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrapServers);
        props.put("group.id", groupId);
        props.put("config.storage.topic", groupId + "-configs");
        props.put("offset.storage.topic", groupId + "-offsets");
        props.put("status.storage.topic", groupId + "-status");
        props.put("config.storage.replication.factor", "1");
        props.put("offset.storage.replication.factor", "1");
        props.put("status.storage.replication.factor", "1");
        props.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        props.put("value.converter", "org.apache.kafka.connect.storage.StringConverter");
        props.put("listeners", "http://localhost:0");
        // The file connectors and MirrorMaker's are on the class path with their service manifests: no scan of it.
        props.put("plugin.discovery", "service_load");
        // Sinks flush their output and sources store their positions at each commit: often, so the test sees both.
        props.put("offset.flush.interval.ms", "200");
        props.putAll(overrides);
        // The worker's threads inherit the starting thread's context loader, which Jersey and ServiceLoader use.
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(CONNECT_CLASSES);
        try {
            Object cli = CONNECT_CLASSES.loadClass("org.apache.kafka.connect.cli.ConnectDistributed")
                    .getConstructor(String[].class).newInstance((Object) new String[0]);
            return new ConnectWorker(cli.getClass().getMethod("startConnect", Map.class).invoke(cli, props));
        } catch (InvocationTargetException e) {
            throw new AssertionError("the Connect worker did not start", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Creates (or reconfigures) a connector, as {@code PUT /connectors/{name}/config}. */
    void putConnector(String name, Map<String, String> config) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(rest.resolve("connectors/" + name + "/config"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(write(config))));
        if (response.statusCode() / 100 != 2) {
            throw new AssertionError("PUT connector " + name + ": " + response.statusCode() + " " + response.body());
        }
    }

    /** {@code GET /connectors/{name}/status}, or null while the worker does not know the connector. */
    JsonNode status(String name) {
        HttpResponse<String> response =
                send(HttpRequest.newBuilder(rest.resolve("connectors/" + name + "/status")).GET());
        if (response.statusCode() != 200) {
            return null;
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the connector and its {@code tasks} tasks all report RUNNING. */
    boolean running(String name, int tasks) {
        JsonNode status = status(name);
        if (status == null || !status.path("connector").path("state").asText().equals("RUNNING")
                || status.path("tasks").size() != tasks) {
            return false;
        }
        for (JsonNode task : status.path("tasks")) {
            if (!task.path("state").asText().equals("RUNNING")) {
                return false;
            }
        }
        return true;
    }

    /** The workers the connector and its tasks run on, by their ids ({@code host:port} of their REST servers). */
    Set<String> workersOf(String name) {
        JsonNode status = status(name);
        Set<String> workers = new HashSet<>();
        if (status != null) {
            workers.add(status.path("connector").path("worker_id").asText());
            status.path("tasks").forEach(task -> workers.add(task.path("worker_id").asText()));
        }
        return workers;
    }

    /** This worker's id, as its status reports name it. */
    String workerId() {
        return rest.getHost() + ":" + rest.getPort();
    }

    /** Waits until the connector and its tasks run, failing with the last status the worker reported. */
    void awaitRunning(String name, int tasks) {
        Eventually.await(() -> running(name, tasks), () -> name + " running; last status " + status(name));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the worker as SIGTERM does: its tasks commit their offsets and it leaves the group. */
    @Override
    public void close() {
        call(connect, "stop");
        call(connect, "awaitStop");
    }

    private static Object call(Object target, String method) {
        try {
            return target.getClass().getMethod(method).invoke(target);
        } catch (InvocationTargetException e) {
            throw new AssertionError(method + " of the Connect worker failed", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static ClassLoader connectClassLoader() {
        URL[] urls = Arrays.stream(KafkaTool.classPathWith("kafka.tools.clients.jar").split(File.pathSeparator))
                .map(entry -> {
                    try {
                        return new File(entry).toURI().toURL();
                    } catch (MalformedURLException e) {
                        throw new UncheckedIOException(e);
                    }
                }).toArray(URL[]::new);
        return new URLClassLoader("connect-4.3.1", urls, ClassLoader.getPlatformClassLoader());
    }
}
