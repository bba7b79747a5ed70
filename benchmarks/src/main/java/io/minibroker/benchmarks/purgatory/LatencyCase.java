package io.minibroker.benchmarks.purgatory;

/**
 * The two completion-latency distributions of the seed benchmark, each a log-normal given by two quantiles.
 *
 * <p>For a log-normal, ln(X) is normal: its median is ln(p50), and p75 sits 0.6745 standard deviations above it
 * (the 75th percentile of the standard normal), which pins sigma.
 */
public enum LatencyCase {
    /** Most requests complete well before the 200 ms timeout; a small tail expires. */
    LOW("low", 20, 60),
    /** About half the requests expire: the timer does most of the work. */
    HIGH("high", 200, 400);

    private static final double Z_75 = 0.6745;

    private final String label;
    private final double mu;
    private final double sigma;

    LatencyCase(String label, double p50Ms, double p75Ms) {
        this.label = label;
        this.mu = Math.log(p50Ms);
        this.sigma = (Math.log(p75Ms) - Math.log(p50Ms)) / Z_75;
    }

    public String label() {
        return label;
    }

    /** Log-normal latency in milliseconds from a standard normal draw. */
    public double latencyMs(double standardNormal) {
        return Math.exp(mu + sigma * standardNormal);
    }

    public static LatencyCase of(String label) {
        for (LatencyCase c : values()) {
            if (c.label.equals(label)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown case: " + label);
    }
}
