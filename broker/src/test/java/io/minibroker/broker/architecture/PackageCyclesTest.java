package io.minibroker.broker.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The broker's packages depend on each other one way (docs/architecture.md): no package imports, directly or
 * through others, a package that imports it. Read from the sources' import lines, so a cycle fails the build
 * the day it is written.
 */
class PackageCyclesTest {

    private static final Path SOURCES = Path.of("src", "main", "java", "io", "minibroker", "broker");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.minibroker\\.broker\\.(\\w+)\\.",
            Pattern.MULTILINE);

    @Test
    void noPackageReachesItselfThroughItsImports() throws IOException {
        Map<String, Set<String>> imports = packageImports();
        assertThat(imports).as("the broker's packages were read").containsKeys("api", "server", "log");

        List<List<String>> cycles = new ArrayList<>();
        for (String start : imports.keySet()) {
            List<String> path = pathBack(imports, start);
            if (path != null) {
                cycles.add(path);
            }
        }
        assertThat(cycles).as("import paths from a package back to itself").isEmpty();
    }

    /** Each package of the broker and the other broker packages its classes import. */
    private static Map<String, Set<String>> packageImports() throws IOException {
        Map<String, Set<String>> imports = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String pkg = SOURCES.relativize(file.getParent()).toString().replace('/', '.');
                Set<String> used = imports.computeIfAbsent(pkg, p -> new TreeSet<>());
                Matcher m = IMPORT.matcher(Files.readString(file));
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        used.add(m.group(1));
                    }
                }
            }
        }
        return imports;
    }

    /** A path of imports from {@code start} back to itself, or null if there is none (breadth first). */
    private static List<String> pathBack(Map<String, Set<String>> imports, String start) {
        Map<String, String> cameFrom = new TreeMap<>();
        Deque<String> queue = new ArrayDeque<>(imports.getOrDefault(start, Set.of()));
        imports.getOrDefault(start, Set.of()).forEach(next -> cameFrom.put(next, start));
        while (!queue.isEmpty()) {
            String pkg = queue.poll();
            if (pkg.equals(start)) {
                List<String> path = new ArrayList<>(List.of(start));
                for (String at = cameFrom.get(start); !at.equals(start); at = cameFrom.get(at)) {
                    path.add(0, at);
                }
                path.add(0, start);
                return path;
            }
            for (String next : imports.getOrDefault(pkg, Set.of())) {
                if (!cameFrom.containsKey(next)) {
                    cameFrom.put(next, pkg);
                    queue.add(next);
                }
            }
        }
        return null;
    }
}
