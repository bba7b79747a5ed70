package io.minibroker.broker.security;

import io.minibroker.broker.log.DurableFiles;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * A single node's delegation tokens (KIP-48), as Kafka's DelegationTokenManager and cache hold them: each token with
 * its HMAC (HmacSHA512 of the token id under {@code delegation.token.secret.key}, so never stored: a restart computes
 * it again from the key) and, for each SCRAM mechanism, the credential a client signs in with (the HMAC in base64 as
 * the password, {@link ScramMechanism#MIN_ITERATIONS} iterations, as Kafka's). Kafka keeps the tokens in its metadata
 * log as DelegationTokenRecords; this node keeps them in one owner-only file of its first log directory,
 * {@value #FILE_NAME}, rewritten whole on every change before the change is seen, so an answered change survives a
 * crash. In a cluster the controller keeps them so, in its own directory, and hands them to every broker in its image
 * (DelegationTokenRecords); a broker holds a copy ({@link #following}) that each image replaces, and signs clients in
 * from it: the HMACs and credentials each node derives itself from the token ids and its own secret key, which every
 * node of a cluster must be given alike, as in Kafka.
 *
 * <p>Thread-safe. Look-ups (sign-ins on the event loops, DescribeDelegationToken) read an immutable snapshot without
 * a lock; changes (on the disk thread, and the expiry sweep) are serialised by their own lock.
 */
public final class DelegationTokens {

    static final String FILE_NAME = ".minibroker-delegation-tokens";
    private static final String HMAC_ALGORITHM = "HmacSHA512";

    /** A token as it is held: with its HMAC and its SCRAM credentials. */
    public record Held(DelegationToken token, byte[] hmac, Map<ScramMechanism, ScramCredential> credentials) {
    }

    private final Path file;
    private final SecretKeySpec secretKey;
    private final Object changes = new Object();
    /** The tokens by id, and the ids by HMAC in base64 (renewals and expiries name a token by its HMAC). */
    private volatile Map<String, Held> byId = Map.of();
    private volatile Map<String, String> idByHmac = Map.of();
    /** The tokens alone, replaced with the maps: one instance per change, which the controller's image relies on. */
    private volatile List<DelegationToken> tokens = List.of();

    private DelegationTokens(Path file, String secretKey) {
        this.file = file;
        this.secretKey = secretKey == null || secretKey.isEmpty() ? null
                : new SecretKeySpec(secretKey.getBytes(StandardCharsets.UTF_8), HMAC_ALGORITHM);
    }

    /**
     * The tokens saved in {@code dir} (none the first time), under {@code secretKey}; tokens are off (Kafka's
     * DELEGATION_TOKEN_AUTH_DISABLED) with no key or an empty one, and then none is read either.
     */
    public static DelegationTokens open(Path dir, String secretKey) throws IOException {
        DelegationTokens tokens = new DelegationTokens(dir.resolve(FILE_NAME), secretKey);
        if (tokens.enabled() && Files.exists(tokens.file)) {
            List<Held> loaded = new ArrayList<>();
            for (String line : Files.readAllLines(tokens.file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    loaded.add(tokens.held(tokens.load(line)));
                }
            }
            tokens.publish(loaded);
        }
        return tokens;
    }

    /** No tokens and none to be made: tokens off. */
    public static DelegationTokens disabled() {
        return new DelegationTokens(null, null);
    }

    /**
     * A cluster broker's copy of the controller's tokens, filled by {@link #replaceAll}; off, and left empty, without
     * a secret key, as a Kafka broker without one signs no token in.
     */
    public static DelegationTokens following(String secretKey) {
        return new DelegationTokens(null, secretKey);
    }

    /**
     * A cluster broker's copy takes the image's tokens. A token already held keeps its HMAC and credentials (they
     * follow from its id alone), so an image that renews one costs no key derivation.
     */
    public void replaceAll(Collection<DelegationToken> tokens) {
        if (!enabled()) {
            return;
        }
        synchronized (changes) {
            Map<String, Held> known = byId;
            List<Held> next = new ArrayList<>();
            for (DelegationToken token : tokens) {
                Held held = known.get(token.tokenId());
                next.add(held == null ? held(token) : new Held(token, held.hmac(), held.credentials()));
            }
            publish(next);
        }
    }

    /** Whether tokens are on: a secret key is configured. */
    public boolean enabled() {
        return secretKey != null;
    }

    /** The token's HMAC: its password, HmacSHA512 of its id under the secret key. */
    public byte[] hmac(String tokenId) {
        try {
            Mac mac = Mac.getInstance(HMAC_ALGORITHM);
            mac.init(secretKey);
            return mac.doFinal(tokenId.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(HMAC_ALGORITHM + " is part of every Java runtime", e);
        }
    }

    public Optional<Held> byId(String tokenId) {
        return Optional.ofNullable(byId.get(tokenId));
    }

    public Optional<Held> byHmac(byte[] hmac) {
        String id = idByHmac.get(Base64.getEncoder().encodeToString(hmac));
        return id == null ? Optional.empty() : byId(id);
    }

    /** Every token held, expired ones too until the next sweep ({@link #removeExpired}), as Kafka's cache. */
    public Collection<Held> all() {
        return byId.values();
    }

    /**
     * The tokens alone, by id: what the controller's image hands brokers; the same instance until the tokens change,
     * so that the image encodes them once a change.
     */
    public List<DelegationToken> tokens() {
        return tokens;
    }

    /**
     * Adds a token, or replaces the one of its id (a renewal or an expiry moving its time), and saves. A token's HMAC
     * and SCRAM credentials follow from its id alone, so a replaced one keeps those it has: deriving them again would
     * cost a renewal both mechanisms' 4096 iterations on the disk thread for the same result.
     */
    public Held put(DelegationToken token) throws IOException {
        Held known = byId.get(token.tokenId());
        Held held = known == null ? held(token) : new Held(token, known.hmac(), known.credentials());
        change(tokens -> {
            tokens.put(token.tokenId(), held);
            return tokens;
        });
        return held;
    }

    /** Removes a token (an expiry with a negative period) and saves. */
    public void remove(String tokenId) throws IOException {
        change(tokens -> {
            tokens.remove(tokenId);
            return tokens;
        });
    }

    /**
     * Removes the tokens expired at {@code nowMs}, Kafka's periodic expiry check; returns how many (nothing is
     * written when none is).
     */
    public int removeExpired(long nowMs) throws IOException {
        synchronized (changes) {
            List<String> expired = byId.values().stream().map(Held::token).filter(token -> token.expiredAt(nowMs))
                    .map(DelegationToken::tokenId).toList();
            if (!expired.isEmpty()) {
                change(tokens -> {
                    expired.forEach(tokens::remove);
                    return tokens;
                });
            }
            return expired.size();
        }
    }

    private void change(UnaryOperator<Map<String, Held>> edit) throws IOException {
        synchronized (changes) {
            Map<String, Held> next = edit.apply(new TreeMap<>(byId));
            save(next.values());
            publish(next.values());
        }
    }

    private void publish(Collection<Held> next) {
        Map<String, Held> ids = new TreeMap<>();
        Map<String, String> hmacs = new HashMap<>();
        for (Held held : next) {
            ids.put(held.token().tokenId(), held);
            hmacs.put(Base64.getEncoder().encodeToString(held.hmac()), held.token().tokenId());
        }
        idByHmac = Collections.unmodifiableMap(hmacs);
        byId = Collections.unmodifiableMap(ids);
        tokens = ids.values().stream().map(Held::token).toList();
    }

    private Held held(DelegationToken token) {
        byte[] hmac = hmac(token.tokenId());
        String password = Base64.getEncoder().encodeToString(hmac);
        Map<ScramMechanism, ScramCredential> credentials = new EnumMap<>(ScramMechanism.class);
        for (ScramMechanism mechanism : ScramMechanism.values()) {
            credentials.put(mechanism, mechanism.credentialOf(password, ScramMechanism.MIN_ITERATIONS));
        }
        return new Held(token, hmac, Collections.unmodifiableMap(credentials));
    }

    /**
     * One line a token: id, owner, requester, issue, max and expiry times, renewers; the principals as
     * {@code type:name} in base64, so that any name fits, the renewers joined by commas ("-" for none).
     */
    private void save(Collection<Held> tokens) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Held held : tokens) {
            DelegationToken token = held.token();
            String renewers = token.renewers().isEmpty() ? "-"
                    : String.join(",", token.renewers().stream().map(DelegationTokens::encode).toList());
            text.append(String.join(" ", token.tokenId(), encode(token.owner()), encode(token.requester()),
                    Long.toString(token.issueTimestamp()), Long.toString(token.maxTimestamp()),
                    Long.toString(token.expiryTimestamp()), renewers)).append('\n');
        }
        // A token's id and the secret key make its password; the ids are for the broker's owner only.
        DurableFiles.writeAtomicallyOwnerOnly(file, text.toString());
    }

    private DelegationToken load(String line) throws IOException {
        String[] fields = line.trim().split(" ");
        if (fields.length != 7) {
            throw new IOException("unreadable line in " + file + ": expected id, owner, requester, times, renewers");
        }
        try {
            List<KafkaPrincipal> renewers = fields[6].equals("-") ? List.of()
                    : Arrays.stream(fields[6].split(",")).map(DelegationTokens::decode).toList();
            return new DelegationToken(fields[0], decode(fields[1]), decode(fields[2]), renewers,
                    Long.parseLong(fields[3]), Long.parseLong(fields[4]), Long.parseLong(fields[5]));
        } catch (IllegalArgumentException e) {
            throw new IOException("unreadable line in " + file + ": " + e.getMessage(), e);
        }
    }

    private static String encode(KafkaPrincipal principal) {
        return Base64.getEncoder().encodeToString(principal.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static KafkaPrincipal decode(String text) {
        return KafkaPrincipal.parse(new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8));
    }
}
