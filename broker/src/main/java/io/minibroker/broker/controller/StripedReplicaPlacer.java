package io.minibroker.broker.controller;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Replica placement over racks, as Kafka 4.3.1's StripedReplicaPlacer places a topic's partitions when brokers have
 * a {@code broker.rack}: the racks are taken in turn (the brokers without a rack form one more, sorted first, as
 * Kafka's empty Optional), each partition's leader from the next rack with a live broker, its other replicas one per
 * rack after it, going round again only when the racks run out; within a rack the brokers take turns, live ones before
 * fenced ones. Where the turns start is random, and once as many partitions as there are live brokers have been
 * placed the racks and brokers are shuffled, so that a large topic does not repeat one pattern. The random draws
 * come in Kafka's order, so that one seed places as Kafka's placer does with it (StripedReplicaPlacerTest holds the
 * two to that). One placement per call; not thread-safe (the controller's topics place under their lock).
 */
final class StripedReplicaPlacer {

    private final Random random;

    StripedReplicaPlacer(Random random) {
        this.random = random;
    }

    /**
     * Replica lists for {@code count} partitions of {@code replicationFactor} replicas each, over the
     * {@code registered} brokers, of which the {@code live} ones may lead, each in its rack of {@code racks} (absent:
     * none). The caller has checked that there is a live broker and at least {@code replicationFactor} registered.
     */
    List<List<Integer>> place(List<Integer> registered, Set<Integer> live, Map<Integer, String> racks, int count,
                              int replicationFactor) {
        Stripes stripes = new Stripes(registered, live, racks);
        List<List<Integer>> placed = new ArrayList<>(count);
        for (int partition = 0; partition < count; partition++) {
            placed.add(stripes.next(replicationFactor));
        }
        return placed;
    }

    /** One rack's brokers of one kind (live or fenced), taking turns: each round starts one broker further on. */
    private static final class Turns {
        private final List<Integer> brokers = new ArrayList<>();
        private int taken;
        private int start;
        private int round;

        void sortAndStartAnywhere(Random random) {
            if (!brokers.isEmpty()) {
                brokers.sort(Comparator.naturalOrder());
                start = random.nextInt(brokers.size());
            }
        }

        /** The next broker of round {@code newRound}, -1 when this round has had them all (or there are none). */
        int next(int newRound) {
            if (brokers.isEmpty()) {
                return -1;
            }
            if (round != newRound) {
                round = newRound;
                taken = 0;
                start = (start + 1) % brokers.size();
            }
            if (taken >= brokers.size()) {
                return -1;
            }
            return brokers.get((start + taken++) % brokers.size());
        }
    }

    /** A rack's brokers: the live ones first, then the fenced ones, which may be replicas but never lead. */
    private record Rack(Turns live, Turns fenced) {

        Rack() {
            this(new Turns(), new Turns());
        }

        int nextLive(int round) {
            return live.next(round);
        }

        int nextAny(int round) {
            int broker = live.next(round);
            return broker >= 0 ? broker : fenced.next(round);
        }
    }

    /** The racks in turn, over one placement's partitions. */
    private final class Stripes {
        private final Map<Optional<String>, Rack> racks = new HashMap<>();
        private final List<Optional<String>> order = new ArrayList<>();
        private final int liveCount;
        private int round;
        private int firstRack;

        Stripes(List<Integer> registered, Set<Integer> live, Map<Integer, String> rackOf) {
            int liveBrokers = 0;
            for (int broker : registered) {
                Optional<String> name = Optional.ofNullable(rackOf.get(broker));
                Rack rack = racks.computeIfAbsent(name, absent -> {
                    order.add(absent);
                    return new Rack();
                });
                if (live.contains(broker)) {
                    rack.live().brokers.add(broker);
                    liveBrokers++;
                } else {
                    rack.fenced().brokers.add(broker);
                }
            }
            for (Rack rack : racks.values()) {
                rack.fenced().sortAndStartAnywhere(random);
                rack.live().sortAndStartAnywhere(random);
            }
            order.sort(Comparator.comparing((Optional<String> name) -> name.isPresent())
                    .thenComparing(name -> name.orElse("")));
            liveCount = liveBrokers;
            firstRack = order.isEmpty() ? 0 : random.nextInt(order.size());
        }

        List<Integer> next(int replicationFactor) {
            if (round == liveCount && liveCount > 1) {
                Collections.shuffle(order, random);
                for (Rack rack : racks.values()) {
                    Collections.shuffle(rack.fenced().brokers, random);
                    Collections.shuffle(rack.live().brokers, random);
                }
                round = 0;
            }
            if (firstRack == order.size()) {
                firstRack = 0;
            }
            List<Integer> replicas = new ArrayList<>(replicationFactor);
            int leaderRack = firstRack;
            int leader = racks.get(order.get(leaderRack)).nextLive(round);
            while (leader < 0) {
                leaderRack = (leaderRack + 1) % order.size();
                leader = racks.get(order.get(leaderRack)).nextLive(round);
            }
            replicas.add(leader);
            // The others from the first rack on, passing over the leader's rack once: one replica per rack while
            // the racks last.
            int rack = firstRack;
            boolean leaderRackPassed = false;
            while (replicas.size() < replicationFactor) {
                int broker = -1;
                if (rack == leaderRack && !leaderRackPassed) {
                    leaderRackPassed = true;
                } else {
                    broker = racks.get(order.get(rack)).nextAny(round);
                }
                rack = (rack + 1) % order.size();
                if (broker >= 0) {
                    replicas.add(broker);
                }
            }
            round++;
            firstRack++;
            return replicas;
        }
    }
}
