package io.minibroker.broker.security;

import io.minibroker.broker.log.DurableFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The SCRAM credentials of a single node's users, as AlterUserScramCredentials sets them (kafka-configs
 * {@code --entity-type users --add-config 'SCRAM-SHA-256=[password=...]'}); Kafka keeps them in its metadata log,
 * this node in one file of its first log directory, {@value #FILE_NAME}, readable by its owner only and rewritten
 * whole ({@link DurableFiles#writeAtomically}) on every change, so a change acknowledged survives a crash.
 *
 * <p>Thread-safe. Lookups, on the event loops during sign-ins, read an immutable snapshot without a lock: a
 * change's fsync, on the disk thread, never holds them up. Changes are serialised by their own lock and publish
 * the next snapshot once it is saved.
 */
public final class ScramCredentials {

    static final String FILE_NAME = ".minibroker-scram-credentials";

    /** One change of an AlterUserScramCredentials: an upsert carries a credential, a deletion none. */
    public record Change(String user, ScramMechanism mechanism, ScramCredential credential) {
    }

    private final Path file;
    private final Object changes = new Object();
    private volatile Map<String, Map<ScramMechanism, ScramCredential>> byUser = Map.of();

    private ScramCredentials(Path file) {
        this.file = file;
    }

    /**
     * A cluster broker's copy of the controller's credentials, kept in memory only and replaced whole by each
     * image ({@link #replaceAll}); the controller keeps the saved ones.
     */
    public static ScramCredentials following() {
        return new ScramCredentials(null);
    }

    /** The credentials saved in {@code dir} (none, the first time). */
    public static ScramCredentials open(Path dir) throws IOException {
        ScramCredentials credentials = new ScramCredentials(dir.resolve(FILE_NAME));
        if (Files.exists(credentials.file)) {
            Map<String, Map<ScramMechanism, ScramCredential>> loaded = new TreeMap<>();
            for (String line : Files.readAllLines(credentials.file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    credentials.load(line, loaded);
                }
            }
            credentials.byUser = frozen(loaded);
        }
        return credentials;
    }

    public Optional<ScramCredential> get(String user, ScramMechanism mechanism) {
        return Optional.ofNullable(byUser.getOrDefault(user, Map.of()).get(mechanism));
    }

    public boolean has(String user, ScramMechanism mechanism) {
        return byUser.getOrDefault(user, Map.of()).containsKey(mechanism);
    }

    /** Every user's mechanisms and their iteration counts, by user name. */
    public Map<String, Map<ScramMechanism, Integer>> describe() {
        Map<String, Map<ScramMechanism, Integer>> described = new TreeMap<>();
        byUser.forEach((user, credentials) -> {
            Map<ScramMechanism, Integer> iterations = new EnumMap<>(ScramMechanism.class);
            credentials.forEach((mechanism, credential) -> iterations.put(mechanism, credential.iterations()));
            described.put(user, iterations);
        });
        return described;
    }

    /** Every user's credentials, by user name and mechanism: what the controller hands its brokers. */
    public Map<String, Map<ScramMechanism, ScramCredential>> all() {
        return byUser;
    }

    /** Replaces every credential with {@code credentials}, as a following broker applies an image. */
    public void replaceAll(Map<String, Map<ScramMechanism, ScramCredential>> credentials) {
        synchronized (changes) {
            byUser = frozen(credentials);
        }
    }

    /** Applies the changes together and saves them; on a failed save nothing changes. */
    public void apply(List<Change> toApply) throws IOException {
        synchronized (changes) {
            Map<String, Map<ScramMechanism, ScramCredential>> next = new TreeMap<>();
            byUser.forEach((user, credentials) -> next.put(user, new EnumMap<>(credentials)));
            for (Change change : toApply) {
                Map<ScramMechanism, ScramCredential> credentials =
                        next.computeIfAbsent(change.user(), user -> new EnumMap<>(ScramMechanism.class));
                if (change.credential() == null) {
                    credentials.remove(change.mechanism());
                } else {
                    credentials.put(change.mechanism(), change.credential());
                }
                if (credentials.isEmpty()) {
                    next.remove(change.user());
                }
            }
            if (file == null) {
                throw new IllegalStateException("a following broker's credentials change only through the controller");
            }
            save(next);
            byUser = frozen(next);
        }
    }

    private static Map<String, Map<ScramMechanism, ScramCredential>> frozen(
            Map<String, Map<ScramMechanism, ScramCredential>> credentials) {
        Map<String, Map<ScramMechanism, ScramCredential>> copy = new TreeMap<>();
        credentials.forEach((user, byMechanism) ->
                copy.put(user, Collections.unmodifiableMap(new EnumMap<>(byMechanism))));
        return Collections.unmodifiableMap(copy);
    }

    private void save(Map<String, Map<ScramMechanism, ScramCredential>> credentials) throws IOException {
        List<String> lines = new ArrayList<>();
        Base64.Encoder base64 = Base64.getEncoder();
        credentials.forEach((user, byMechanism) -> byMechanism.forEach((mechanism, credential) ->
                lines.add(String.join(" ", base64.encodeToString(user.getBytes(StandardCharsets.UTF_8)),
                        mechanism.saslName(), Integer.toString(credential.iterations()),
                        base64.encodeToString(credential.salt()), base64.encodeToString(credential.storedKey()),
                        base64.encodeToString(credential.serverKey())))));
        // A stored key and a server key, with one exchange seen on a plaintext connection, let someone sign in as
        // that user: the file is for the broker's owner only.
        DurableFiles.writeAtomicallyOwnerOnly(file, lines.isEmpty() ? "" : String.join("\n", lines) + "\n");
    }

    /** One saved line: user (base64, so any name fits), mechanism, iterations, salt, stored key, server key. */
    private void load(String line, Map<String, Map<ScramMechanism, ScramCredential>> into) throws IOException {
        String[] fields = line.trim().split(" ");
        ScramMechanism mechanism = fields.length == 6 ? ScramMechanism.bySaslName(fields[1]) : null;
        if (mechanism == null) {
            throw new IOException("unreadable line in " + file + ": expected user, mechanism, iterations, salt and"
                    + " keys");
        }
        Base64.Decoder base64 = Base64.getDecoder();
        try {
            String user = new String(base64.decode(fields[0]), StandardCharsets.UTF_8);
            into.computeIfAbsent(user, u -> new EnumMap<>(ScramMechanism.class)).put(mechanism,
                    new ScramCredential(base64.decode(fields[3]), base64.decode(fields[4]), base64.decode(fields[5]),
                            Integer.parseInt(fields[2])));
        } catch (IllegalArgumentException e) {
            throw new IOException("unreadable line in " + file + ": " + e.getMessage(), e);
        }
    }
}
