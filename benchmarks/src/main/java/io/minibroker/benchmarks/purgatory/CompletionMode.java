package io.minibroker.benchmarks.purgatory;

/** How the completion thread finishes a request whose latency is shorter than its timeout. */
public enum CompletionMode {
    /** Calls forceComplete() on the operation directly: measures watch + timer add/cancel, no key scans. */
    FORCE("force"),
    /**
     * Marks the operation satisfiable and calls checkAndComplete on each of its keys, as a broker does after an
     * append: adds the cost of walking the watcher lists, which is where the purgatories differ most.
     */
    EVENT("event");

    private final String label;

    CompletionMode(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static CompletionMode of(String label) {
        for (CompletionMode m : values()) {
            if (m.label.equals(label)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode: " + label);
    }
}
