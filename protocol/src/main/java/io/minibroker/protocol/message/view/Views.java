package io.minibroker.protocol.message.view;

import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Glue shared by the typed views: schema checks and list views that wrap elements as they are read. */
final class Views {
    private Views() {
    }

    static Struct check(Struct struct, StructSchema schema) {
        if (struct.schema() != schema) {
            throw new IllegalArgumentException("a " + struct.schema().name() + " cannot be viewed as " + schema.name());
        }
        return struct;
    }

    @SuppressWarnings("unchecked")
    static <T> List<T> scalars(Object list) {
        return (List<T>) list;
    }

    /** Wraps without copying; null stays null, for nullable arrays. */
    @SuppressWarnings("unchecked")
    static <V> List<V> structs(Object list, Function<Struct, V> wrap) {
        if (list == null) {
            return null;
        }
        List<Struct> structs = (List<Struct>) list;
        return new AbstractList<>() {
            @Override
            public V get(int index) {
                return wrap.apply(structs.get(index));
            }

            @Override
            public int size() {
                return structs.size();
            }
        };
    }

    /** The structs under {@code views}, in a list of their own to hold; null stays null, for nullable arrays. */
    static <V> List<Struct> unwrap(List<V> views, Function<V, Struct> struct) {
        if (views == null) {
            return null;
        }
        List<Struct> structs = new ArrayList<>(views.size());
        for (V view : views) {
            structs.add(struct.apply(view));
        }
        return structs;
    }
}
