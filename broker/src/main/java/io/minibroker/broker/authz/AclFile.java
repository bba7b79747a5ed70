package io.minibroker.broker.authz;

import io.minibroker.broker.log.DurableFiles;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The ACLs of a single node, kept across restarts in one text file of the first log directory: one binding a
 * line, its seven fields URL-encoded (group and principal names may hold any character) and separated by spaces.
 * The whole file is rewritten atomically on each change; ACL changes are rare and few.
 */
final class AclFile {

    static final String FILE_NAME = "acls";

    private final Path path;

    AclFile(Path logDir) {
        this.path = logDir.resolve(FILE_NAME);
    }

    List<AclBinding> load() throws IOException {
        List<AclBinding> bindings = new ArrayList<>();
        if (!Files.exists(path)) {
            return bindings;
        }
        for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(" ");
            if (f.length != 7) {
                throw new IOException("corrupt ACL line in " + path + ": " + line);
            }
            bindings.add(new AclBinding(ResourceType.valueOf(f[0]), decode(f[1]), PatternType.valueOf(f[2]),
                    decode(f[3]), decode(f[4]), AclOperation.valueOf(f[5]), AclPermissionType.valueOf(f[6])));
        }
        return bindings;
    }

    void save(List<AclBinding> bindings) throws IOException {
        StringBuilder text = new StringBuilder();
        for (AclBinding b : bindings) {
            text.append(b.resourceType()).append(' ').append(encode(b.resourceName())).append(' ')
                    .append(b.patternType()).append(' ').append(encode(b.principal())).append(' ')
                    .append(encode(b.host())).append(' ').append(b.operation()).append(' ')
                    .append(b.permission()).append('\n');
        }
        DurableFiles.writeAtomically(path, text.toString());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String decode(String value) {
        return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }
}
