package io.minibroker.protocol.schema;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** Value equality that treats byte arrays by content, which {@link Objects#equals} does not. */
final class Values {
    private Values() {
    }

    static boolean deepEquals(Object a, Object b) {
        if (a instanceof byte[] && b instanceof byte[]) {
            return Arrays.equals((byte[]) a, (byte[]) b);
        }
        if (a instanceof List && b instanceof List) {
            List<?> la = (List<?>) a;
            List<?> lb = (List<?>) b;
            if (la.size() != lb.size()) {
                return false;
            }
            for (int i = 0; i < la.size(); i++) {
                if (!deepEquals(la.get(i), lb.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(a, b);
    }

    static int deepHash(Object value) {
        if (value instanceof byte[]) {
            return Arrays.hashCode((byte[]) value);
        }
        if (value instanceof List) {
            int h = 1;
            for (Object element : (List<?>) value) {
                h = 31 * h + deepHash(element);
            }
            return h;
        }
        return Objects.hashCode(value);
    }
}
