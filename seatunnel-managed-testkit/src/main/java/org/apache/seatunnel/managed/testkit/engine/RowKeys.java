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

package org.apache.seatunnel.managed.testkit.engine;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.api.table.type.RowKind;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/**
 * Renders a row, or one of its fields, as a stable string key, so that rows of any type can be
 * counted by {@link RowAccounting} and compared across runs, lanes and JVMs.
 *
 * <p>Threading: stateless, any thread.
 *
 * <p>The rendering is a function of the values only (never of identity hash codes or hash-map
 * iteration order):
 *
 * <ul>
 *   <li>a row: its fields in order, {@code [f0, f1, ...]}; a kind other than {@code INSERT} is
 *       prefixed with its short string ({@code "-D [1, \"a\"]"}); the table id is not part of the
 *       key;
 *   <li>{@code null}: {@code null}; a string: quoted, with {@code \"}, {@code \\} and control
 *       characters escaped; numbers and booleans: {@code toString()}, a {@link BigDecimal} as
 *       {@link BigDecimal#toPlainString()} (its scale is kept, so {@code 1.0} and {@code 1.00}
 *       differ, as they do in a DECIMAL column of another scale);
 *   <li>{@code byte[]}: {@code 0x} and lower-case hex; other arrays: {@code [e0, e1, ...]}, nested
 *       arrays recursively;
 *   <li>a map: {@code {k=v, ...}} with entries sorted by the rendered key; a nested row: {@code
 *       (f0, f1, ...)};
 *   <li>anything else (dates, times, timestamps): {@code toString()}, which is ISO-8601 for the
 *       {@code java.time} types SeaTunnel uses.
 * </ul>
 *
 * <p>{@link #fieldKey(Object)} renders a string field as the bare string, so a source whose rows
 * carry a unique string id can be keyed by that id.
 */
public final class RowKeys {
    private RowKeys() {}

    /** The key of a whole row: every field, in order. */
    public static String of(SeaTunnelRow row) {
        StringBuilder sb = new StringBuilder();
        RowKind kind = row.getRowKind();
        if (kind != null && kind != RowKind.INSERT) {
            sb.append(kind.shortString()).append(' ');
        }
        appendFields(sb, row.getFields(), '[', ']');
        return sb.toString();
    }

    /**
     * The key a row with these field values and kind {@code INSERT} has: for building the expected
     * keys of a test without building rows.
     */
    public static String ofFields(Object... fields) {
        return of(new SeaTunnelRow(fields));
    }

    /** The key of one field: a string as itself, anything else as {@link #render(Object)}. */
    public static String fieldKey(Object value) {
        return value instanceof String ? (String) value : render(value);
    }

    /** One value rendered as in a row key. */
    public static String render(Object value) {
        StringBuilder sb = new StringBuilder();
        append(sb, value);
        return sb.toString();
    }

    private static void append(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof CharSequence) {
            appendQuoted(sb, v.toString());
        } else if (v instanceof BigDecimal) {
            sb.append(((BigDecimal) v).toPlainString());
        } else if (v instanceof byte[]) {
            appendHex(sb, (byte[]) v);
        } else if (v instanceof SeaTunnelRow) {
            appendFields(sb, ((SeaTunnelRow) v).getFields(), '(', ')');
        } else if (v instanceof Map) {
            appendMap(sb, (Map<?, ?>) v);
        } else if (v.getClass().isArray()) {
            appendArray(sb, v);
        } else {
            sb.append(v);
        }
    }

    private static void appendFields(StringBuilder sb, Object[] fields, char open, char close) {
        sb.append(open);
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            append(sb, fields[i]);
        }
        sb.append(close);
    }

    private static void appendArray(StringBuilder sb, Object array) {
        int n = Array.getLength(array);
        sb.append('[');
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            append(sb, Array.get(array, i));
        }
        sb.append(']');
    }

    private static void appendMap(StringBuilder sb, Map<?, ?> map) {
        List<String[]> entries = new ArrayList<>(map.size());
        for (Map.Entry<?, ?> e : map.entrySet()) {
            entries.add(new String[] {render(e.getKey()), render(e.getValue())});
        }
        // Sorted by the rendered key (then value, for maps whose distinct keys render alike), so
        // the key never depends on the map's iteration order.
        Collections.sort(
                entries,
                (a, b) -> {
                    int c = a[0].compareTo(b[0]);
                    return c != 0 ? c : a[1].compareTo(b[1]);
                });
        sb.append('{');
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(entries.get(i)[0]).append('=').append(entries.get(i)[1]);
        }
        sb.append('}');
    }

    /** A JSON string literal (also a YAML double-quoted scalar). */
    static void appendQuoted(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }

    private static void appendHex(StringBuilder sb, byte[] bytes) {
        sb.append("0x");
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xF, 16))
                    .append(Character.forDigit(b & 0xF, 16));
        }
    }
}
