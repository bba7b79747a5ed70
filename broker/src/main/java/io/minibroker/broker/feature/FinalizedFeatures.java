package io.minibroker.broker.feature;

import io.minibroker.broker.log.DurableFiles;
import io.minibroker.protocol.error.Errors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The cluster's finalized feature levels as this node knows them. A single node and a cluster's controller keep
 * their own, changed by UpdateFeatures and written to a file beside their other state before the change is
 * answered (Kafka keeps them in the metadata log as FeatureLevelRecords); until the first change there is no file
 * and the levels are those of a storage formatted with Kafka's defaults. A cluster's other brokers hold a mirror of
 * the controller's, replaced by each image that carries them.
 */
public final class FinalizedFeatures {

    private static final String FILE = ".minibroker-features";

    /** An update's answer: NONE, or the error and message that refuse the whole request. */
    public record Update(Errors error, String message) {
        static final Update DONE = new Update(Errors.NONE, null);
    }

    /** Where changes are kept; null for a broker's mirror of the controller's. */
    private final Path file;
    /** Told of each change made (the controller's image version moves on). */
    private final Runnable onChange;
    private volatile FeatureLevels current;

    private FinalizedFeatures(Path file, Runnable onChange, FeatureLevels current) {
        this.file = file;
        this.onChange = onChange;
        this.current = current;
    }

    /**
     * The levels kept in {@code dir}, or the defaults with {@code transactionVersion} (the level the broker's
     * {@code minibroker.transaction.version} asks for) when no update was ever made there.
     *
     * @throws UncheckedIOException if the file cannot be read
     * @throws IllegalArgumentException if it holds something else than feature levels
     */
    public static FinalizedFeatures open(Path dir, short transactionVersion, Runnable onChange) {
        Path file = dir.resolve(FILE);
        FeatureLevels defaults = FeatureLevels.atDefaults(transactionVersion);
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            return new FinalizedFeatures(file, onChange, FeatureLevels.parse(text, defaults));
        } catch (NoSuchFileException e) {
            return new FinalizedFeatures(file, onChange, defaults);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** A cluster broker's copy of the controller's: the defaults until the first image, then {@link #install}. */
    public static FinalizedFeatures mirror(short transactionVersion) {
        return new FinalizedFeatures(null, () -> { }, FeatureLevels.atDefaults(transactionVersion));
    }

    public FeatureLevels current() {
        return current;
    }

    public short level(Feature feature) {
        return current.level(feature);
    }

    /** A mirror's only change: the controller's levels, from the image. */
    public void install(FeatureLevels levels) {
        current = levels;
    }

    /**
     * Checks an UpdateFeatures as Kafka's controller does and, unless {@code validateOnly}, finalizes the new
     * levels, on disk first. Called on the disk thread.
     *
     * @param nodeId this node's id, which Kafka's messages name as the controller's
     */
    public synchronized Update update(List<FeatureUpdate> updates, boolean validateOnly, int nodeId) {
        if (file == null) {
            throw new IllegalStateException("a broker's finalized features change only at the controller");
        }
        FeatureUpdates.Outcome outcome = FeatureUpdates.check(current, updates, nodeId);
        if (outcome.refusal() != null) {
            return new Update(Errors.INVALID_UPDATE_VERSION, outcome.refusal());
        }
        if (validateOnly || outcome.changes().isEmpty()) {
            return Update.DONE;
        }
        FeatureLevels next = current.with(outcome.changes());
        try {
            DurableFiles.writeAtomically(file, next.toText());
        } catch (IOException e) {
            return new Update(Errors.UNKNOWN_SERVER_ERROR, "cannot write " + file + ": " + e.getMessage());
        }
        current = next;
        onChange.run();
        return Update.DONE;
    }
}
