package io.minibroker.broker.group;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * A streams group's target assignment, in the spirit of Kafka's StickyTaskAssignor: every task (a subtopology's
 * partition) is active on exactly one member; members keep the active tasks they had in the previous target as far as
 * balance allows, and the active tasks are balanced to within one between members. Each task then gets up to
 * {@code numStandbyReplicas} standby copies, each on a member of another process than the active copy and than the
 * other standbys (a standby shares nothing with its active task otherwise), preferring members that had that standby
 * before, then the least loaded. No warm-up tasks are assigned, as Kafka 4.3's sticky assignor assigns none.
 */
final class StreamsTaskAssignor {

    /** A member as the assignor sees it: its process, and its target before this assignment. */
    record Member(String memberId, String processId, StreamsTasks previous) {
    }

    private StreamsTaskAssignor() {
    }

    /** Each member's new target, in the order of {@code members}; every member is in the result. */
    static Map<String, StreamsTasks> assign(List<Member> members, SortedMap<String, Integer> taskCounts,
                                            int numStandbyReplicas) {
        Map<String, StreamsTasks> result = new LinkedHashMap<>();
        if (members.isEmpty()) {
            return result;
        }
        List<TaskId> tasks = new ArrayList<>();
        taskCounts.forEach((subtopology, count) -> {
            for (int partition = 0; partition < count; partition++) {
                tasks.add(new TaskId(subtopology, partition));
            }
        });
        Map<String, Member> byId = new LinkedHashMap<>();
        members.forEach(member -> byId.put(member.memberId(), member));
        Map<String, Set<TaskId>> active = assignActive(members, byId, tasks);
        Map<String, Set<TaskId>> standby = assignStandby(members, byId, tasks, active, numStandbyReplicas);
        for (Member member : members) {
            result.put(member.memberId(), new StreamsTasks(toMap(active.get(member.memberId())),
                    toMap(standby.get(member.memberId())), Map.of()));
        }
        return result;
    }

    private static Map<String, Set<TaskId>> assignActive(List<Member> members, Map<String, Member> byId,
                                                       List<TaskId> tasks) {
        Map<String, Set<TaskId>> active = new LinkedHashMap<>();
        members.forEach(member -> active.put(member.memberId(), new TreeSet<>()));
        int ceiling = (tasks.size() + members.size() - 1) / members.size();
        Map<TaskId, String> previousOwners = new HashMap<>();
        for (Member member : members) {
            member.previous().active().forEach((sub, partitions) -> partitions.forEach(
                    p -> previousOwners.put(new TaskId(sub, p), member.memberId())));
        }
        List<TaskId> unassigned = new ArrayList<>();
        for (TaskId task : tasks) {
            String owner = previousOwners.get(task);
            if (owner != null && active.get(owner).size() < ceiling) {
                active.get(owner).add(task);
            } else {
                unassigned.add(task);
            }
        }
        Comparator<String> byLoad = Comparator.comparingInt(id -> active.get(id).size());
        List<String> order = new ArrayList<>(byId.keySet());
        for (TaskId task : unassigned) {
            // A task goes to a member that had it as a standby (its state is there) if one is among the least loaded.
            int least = order.stream().mapToInt(id -> active.get(id).size()).min().orElseThrow();
            String chosen = order.stream().filter(id -> active.get(id).size() == least
                    && has(byId.get(id).previous().standby(), task)).findFirst()
                    .orElseGet(() -> order.stream().min(byLoad).orElseThrow());
            active.get(chosen).add(task);
        }
        // Stickiness may leave members more than one apart (a member new to the group got nothing): move the
        // highest tasks of the most loaded to the least loaded until the counts are within one.
        while (true) {
            String most = order.stream().max(byLoad).orElseThrow();
            String least = order.stream().min(byLoad).orElseThrow();
            if (active.get(most).size() - active.get(least).size() <= 1) {
                break;
            }
            TaskId moved = ((TreeSet<TaskId>) active.get(most)).last();
            active.get(most).remove(moved);
            active.get(least).add(moved);
        }
        return active;
    }

    private static Map<String, Set<TaskId>> assignStandby(List<Member> members, Map<String, Member> byId,
                                                        List<TaskId> tasks, Map<String, Set<TaskId>> active,
                                                        int replicas) {
        Map<String, Set<TaskId>> standby = new LinkedHashMap<>();
        members.forEach(member -> standby.put(member.memberId(), new TreeSet<>()));
        if (replicas <= 0) {
            return standby;
        }
        Map<TaskId, String> activeOwner = new HashMap<>();
        active.forEach((member, owned) -> owned.forEach(task -> activeOwner.put(task, member)));
        Comparator<String> byLoad = Comparator.comparingInt(id -> active.get(id).size() + standby.get(id).size());
        for (TaskId task : tasks) {
            Set<String> processes = new HashSet<>();
            processes.add(byId.get(activeOwner.get(task)).processId());
            for (int copy = 0; copy < replicas; copy++) {
                List<String> candidates = members.stream().map(Member::memberId)
                        .filter(id -> !processes.contains(byId.get(id).processId())).toList();
                if (candidates.isEmpty()) {
                    break; // fewer processes than copies: as Kafka's, the rest of the standbys are not assigned
                }
                String chosen = candidates.stream().filter(id -> has(byId.get(id).previous().standby(), task))
                        .min(byLoad).orElseGet(() -> candidates.stream().min(byLoad).orElseThrow());
                standby.get(chosen).add(task);
                processes.add(byId.get(chosen).processId());
            }
        }
        return standby;
    }

    private static boolean has(Map<String, Set<Integer>> tasks, TaskId task) {
        return tasks.getOrDefault(task.subtopologyId(), Set.of()).contains(task.partition());
    }

    private static Map<String, Set<Integer>> toMap(Set<TaskId> tasks) {
        Map<String, Set<Integer>> map = new HashMap<>();
        tasks.forEach(task -> map.computeIfAbsent(task.subtopologyId(), s -> new HashSet<>()).add(task.partition()));
        return map;
    }
}
