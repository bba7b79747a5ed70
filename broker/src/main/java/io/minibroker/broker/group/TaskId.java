package io.minibroker.broker.group;

/** One task of a streams group: a subtopology's partition (Kafka's TaskId), ordered by subtopology, then partition. */
record TaskId(String subtopologyId, int partition) implements Comparable<TaskId> {

    @Override
    public int compareTo(TaskId other) {
        int bySubtopology = subtopologyId.compareTo(other.subtopologyId);
        return bySubtopology != 0 ? bySubtopology : Integer.compare(partition, other.partition);
    }
}
