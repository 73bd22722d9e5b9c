/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *    http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.seatunnel.engine.managed.source.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.seatunnel.api.configuration.Option;

/**
 * The operator's {@code seatunnel.engine.managed-source} section as written, read strictly: nested
 * maps flattened to dotted keys, unknown keys refused, and each value read into its option's type
 * and {@link OptionRanges range} with a refusal that names the full key. {@link
 * ManagedSourceConfig} is what it reads into.
 *
 * <p>The values are read from the raw map, not through {@code ReadonlyConfig}, which would take 1
 * or "yes" as true, split "a,b" into two job names and match enum names ignoring case.
 *
 * <p>Threading: immutable after {@link #of}; any thread.
 */
final class ConfigSectionReader {
    /** The full key of an option is this plus its key. */
    static final String PREFIX = "seatunnel.engine." + ManagedSourceOptions.SECTION + ".";

    private final Map<String, Object> raw;

    private ConfigSectionReader(Map<String, Object> raw) {
        this.raw = raw;
    }

    /** Flattens {@code section} and refuses a key no option declares. */
    static ConfigSectionReader of(Map<String, ?> section) {
        Map<String, Object> flat = new LinkedHashMap<>();
        flatten("", section == null ? Collections.<String, Object>emptyMap() : section, flat);
        Set<String> known = new HashSet<>();
        for (Option<?> o : ManagedSourceOptions.all()) {
            known.add(o.key());
        }
        Set<String> unknown = new TreeSet<>();
        for (String k : flat.keySet()) {
            if (!known.contains(k)) {
                unknown.add(PREFIX + k);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(
                    "Unknown key(s) in seatunnel.yaml: "
                            + unknown
                            + "; known keys under "
                            + PREFIX
                            + " are "
                            + new TreeSet<>(known));
        }
        return new ConfigSectionReader(flat);
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Map<String, ?> in, Map<String, Object> out) {
        for (Map.Entry<String, ?> e : in.entrySet()) {
            String key = prefix + e.getKey();
            Object v = e.getValue();
            // No option takes a map value: a nested map is always more key.
            if (v instanceof Map) {
                flatten(key + ".", (Map<String, ?>) v, out);
            } else {
                out.put(key, v);
            }
        }
    }

    /** true or false, as a boolean or as exactly that string. */
    boolean bool(Option<Boolean> option) {
        Object v = raw.get(option.key());
        if (v == null) {
            return option.defaultValue();
        }
        if (v instanceof Boolean) {
            return (Boolean) v;
        }
        if ("true".equals(v) || "false".equals(v)) {
            return Boolean.parseBoolean((String) v);
        }
        throw invalid(option, "must be true or false, not " + shown(v));
    }

    /** A list of non-blank names, trimmed and sorted. */
    Set<String> names(Option<List<String>> option) {
        Object v = raw.get(option.key());
        if (v == null) {
            return nameSet(option.defaultValue());
        }
        if (!(v instanceof List)) {
            throw invalid(
                    option, "must be a list of names, e.g. [ orders, payments ], not " + shown(v));
        }
        List<String> out = new ArrayList<>();
        for (Object n : (List<?>) v) {
            if (!(n instanceof String) || ((String) n).trim().isEmpty()) {
                throw invalid(option, "holds " + shown(n) + ", which is not a name");
            }
            out.add((String) n);
        }
        return nameSet(out);
    }

    /** One of the enum's names, spelled exactly. */
    <E extends Enum<E>> E enumValue(Option<E> option, Class<E> type) {
        Object v = raw.get(option.key());
        if (v == null) {
            return option.defaultValue();
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(v)) {
                return e;
            }
        }
        throw invalid(option, shown(v) + " is not " + typeName(option) + " (case matters)");
    }

    /** An int option, read strictly into its range (every int option's range fits an int). */
    int count(Option<Integer> option) {
        return (int) ranged(option);
    }

    /**
     * A numeric option (count, bytes or duration in nanoseconds) read strictly into its declared
     * {@link OptionRanges range}: no coercion, units for sizes and durations, and a refusal that
     * names the full key, the value and the range.
     */
    long ranged(Option<?> option) {
        return OptionRanges.read(PREFIX, option, raw.get(option.key()));
    }

    static IllegalArgumentException invalid(Option<?> option, String why) {
        return new IllegalArgumentException(
                "Invalid seatunnel.yaml key " + PREFIX + option.key() + ": " + why);
    }

    /**
     * The names, so that a typo shows at load; a long list is cut (a job name is no secret, but a
     * thousand of them make a log line no one reads).
     */
    static String shownNames(Set<String> names) {
        int shown = 20;
        if (names.size() <= shown) {
            return names.toString();
        }
        StringBuilder b = new StringBuilder("[");
        int i = 0;
        for (String n : names) {
            if (i++ == shown) {
                break;
            }
            b.append(n).append(", ");
        }
        return b.append("... (").append(names.size()).append(" in all)]").toString();
    }

    /** A refused value as the operator wrote it: strings quoted, others with their type. */
    private static String shown(Object v) {
        if (v == null) {
            return "an empty value";
        }
        if (v instanceof String) {
            return "\"" + v + "\"";
        }
        return v + " (" + v.getClass().getSimpleName() + ")";
    }

    private static String typeName(Option<?> option) {
        Object d = option.defaultValue();
        if (d instanceof Enum) {
            StringBuilder sb = new StringBuilder("one of [");
            for (Object x : ((Enum<?>) d).getDeclaringClass().getEnumConstants()) {
                sb.append(x).append(' ');
            }
            return sb.toString().trim() + "]";
        }
        return d == null ? "a value" : d.getClass().getSimpleName();
    }

    private static Set<String> nameSet(List<String> list) {
        Set<String> out = new TreeSet<>();
        if (list != null) {
            for (String s : list) {
                if (s != null && !s.trim().isEmpty()) {
                    out.add(s.trim());
                }
            }
        }
        return Collections.unmodifiableSet(out);
    }
}
