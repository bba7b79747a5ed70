package io.minibroker.it;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The transactional program {@link OldClientTransactionsTest} runs in a child JVM with kafka-clients 3.9 (compiled
 * against 4.4.0, it calls only what both lines have): commit and abort on "old", a second instance fencing the
 * first, then consume-transform-produce from "input" to "output" with sendOffsetsToTransaction. It prints
 * {@code RESULT name=value} lines for the test to check; an error ends it with its stack trace and a non-zero exit.
 */
public final class OldClientTransactions {

    private OldClientTransactions() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        result("clientJar", KafkaProducer.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        try (KafkaProducer<String, String> first = TxClients.transactionalProducer(bootstrap, "old-client", Map.of())) {
            first.initTransactions();
            transaction(first, "c0", "c1", "c2").commitTransaction();
            transaction(first, "a0", "a1").abortTransaction();
            transaction(first, "c3", "c4").commitTransaction();
            transaction(first, "fenced0");
            try (KafkaProducer<String, String> second = TxClients.transactionalProducer(bootstrap, "old-client",
                    Map.of())) {
                second.initTransactions();
                result("fencedBy", fenced(first));
                transaction(second, "c5").commitTransaction();
            }
            first.close(Duration.ZERO);
        }
        TopicPartition old = new TopicPartition("old", 0);
        result("readCommitted", String.join(",",
                TxClients.values(TxClients.readToEnd(bootstrap, "read_committed", List.of(old)))));
        result("readUncommitted", String.join(",",
                TxClients.values(TxClients.readToEnd(bootstrap, "read_uncommitted", List.of(old)))));

        TransformLoop loop = new TransformLoop(bootstrap, 3, 3, Map.of());
        loop.run();
        result("transformCommits", String.valueOf(loop.committed.get()));
    }

    /** A transaction begun with these values sent to "old" and acknowledged, left open. */
    private static KafkaProducer<String, String> transaction(KafkaProducer<String, String> producer, String... values)
            throws Exception {
        producer.beginTransaction();
        for (String value : values) {
            producer.send(new ProducerRecord<>("old", 0, "k", value)).get();
        }
        return producer;
    }

    /**
     * What a fenced producer meets: on its next send, then on its abort, the classes of the error and of its causes,
     * outermost first ("none" if none), as "send: ...; abort: ...".
     */
    private static String fenced(KafkaProducer<String, String> producer) {
        return "send: " + errorOf(() -> producer.send(new ProducerRecord<>("old", 0, "k", "fenced1")).get())
                + "; abort: " + errorOf(producer::abortTransaction);
    }

    private interface Step {
        void run() throws Exception;
    }

    private static String errorOf(Step step) {
        try {
            step.run();
            return "none";
        } catch (Exception e) {
            StringBuilder chain = new StringBuilder();
            for (Throwable error = e; error != null; error = error.getCause()) {
                chain.append(chain.isEmpty() ? "" : "<-").append(error.getClass().getSimpleName());
            }
            return chain.toString();
        }
    }

    private static void result(String name, String value) {
        System.out.println("RESULT " + name + "=" + value);
    }
}
