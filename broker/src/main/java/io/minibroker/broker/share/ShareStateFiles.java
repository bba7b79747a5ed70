package io.minibroker.broker.share;

import io.minibroker.broker.log.DurableFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Stream;

/**
 * The share partitions' state as files: one directory per group (its id URL-encoded) under
 * {@code .minibroker-share-state/} of the first log directory, one file per share partition named
 * {@code <topicId>-<partition>}, holding one {@link ShareStateSnapshot} line, replaced whole through
 * {@link DurableFiles} on the disk thread. Only the latest snapshot of a key is written: a write finding a newer
 * one pending writes that one, and the writes after it find nothing left to do.
 *
 * <p>Unlike Kafka's {@code __share_group_state}, the files are this node's: state survives a restart of the node,
 * not a move of the partition's leadership to another node.
 */
public final class ShareStateFiles implements Persister {

    private static final Logger log = LoggerFactory.getLogger(ShareStateFiles.class);
    private static final String DIRECTORY = ".minibroker-share-state";

    private final Path root;
    private final Executor disk;
    private final Map<SharePartitionKey, Optional<ShareStateSnapshot>> pending = new ConcurrentHashMap<>();

    public ShareStateFiles(Path logDir, Executor disk) {
        this.root = logDir.resolve(DIRECTORY);
        this.disk = disk;
    }

    @Override
    public Map<SharePartitionKey, ShareStateSnapshot> readAll() {
        Map<SharePartitionKey, ShareStateSnapshot> states = new HashMap<>();
        if (!Files.isDirectory(root)) {
            return states;
        }
        try (Stream<Path> groups = Files.list(root)) {
            for (Path groupDir : groups.filter(Files::isDirectory).toList()) {
                String groupId = URLDecoder.decode(groupDir.getFileName().toString(), StandardCharsets.UTF_8);
                try (Stream<Path> files = Files.list(groupDir)) {
                    for (Path file : files.filter(f -> !f.getFileName().toString().endsWith(".tmp")).toList()) {
                        String name = file.getFileName().toString();
                        int dash = name.lastIndexOf('-');
                        SharePartitionKey key = new SharePartitionKey(groupId, UUID.fromString(name.substring(0, dash)),
                                Integer.parseInt(name.substring(dash + 1)));
                        states.put(key, ShareStateSnapshot.decode(Files.readString(file)));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the share-group state under " + root, e);
        }
        return states;
    }

    @Override
    public CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot) {
        return submit(key, Optional.of(snapshot));
    }

    @Override
    public CompletionStage<Void> delete(SharePartitionKey key) {
        return submit(key, Optional.empty());
    }

    private CompletionStage<Void> submit(SharePartitionKey key, Optional<ShareStateSnapshot> state) {
        pending.put(key, state);
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            disk.execute(() -> write(key, done));
        } catch (RejectedExecutionException e) { // the broker is stopping: the state stays as last written
            done.completeExceptionally(e);
        }
        return done;
    }

    private void write(SharePartitionKey key, CompletableFuture<Void> done) {
        try {
            Optional<ShareStateSnapshot> latest = pending.remove(key);
            if (latest != null) {
                store(key, latest);
            }
            done.complete(null);
        } catch (IOException | RuntimeException e) {
            log.error("Cannot write the state of share partition {}", key, e);
            done.completeExceptionally(e);
        }
    }

    private void store(SharePartitionKey key, Optional<ShareStateSnapshot> state) throws IOException {
        Path groupDir = root.resolve(URLEncoder.encode(key.groupId(), StandardCharsets.UTF_8));
        Path file = groupDir.resolve(key.topicId() + "-" + key.partition());
        if (state.isEmpty()) {
            Files.deleteIfExists(file);
            return;
        }
        if (!Files.isDirectory(groupDir)) {
            Files.createDirectories(groupDir);
            DurableFiles.fsyncDirectory(root);
        }
        DurableFiles.writeAtomically(file, state.get().encode());
    }
}
