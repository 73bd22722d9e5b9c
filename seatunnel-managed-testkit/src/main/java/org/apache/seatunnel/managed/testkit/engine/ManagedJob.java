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

import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedSourceFactory;

/**
 * A bounded job in a few lines: one connector named through the runtime's {@code Managed} wrapper
 * source ({@link ManagedSourceFactory}), into the testkit's {@link CollectingSink}.
 *
 * <p>Threading: a mutable builder for one test thread; {@link LaneAHarness} reads it when the run
 * starts.
 *
 * <p>{@code ManagedJob.source("MyRange").option("count", 100).parallelism(2)} becomes
 *
 * <pre>{@code
 * env { job.mode = "BATCH", parallelism = 2 }
 * source { Managed { connector = "MyRange", job-name = "MyRange", count = 100 } }
 * sink { TestkitCollect { run.id = "<the run's id>", key.field = "" } }
 * }</pre>
 *
 * The job name is what {@code managed-source.allowed-jobs} is matched against; it defaults to the
 * connector's identifier, as in {@link ManagedSourceFactory#JOB_NAME}.
 */
public final class ManagedJob {
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

    private final String connector;
    private String name;
    private int parallelism = 1;
    private String keyField = "";
    private final Map<String, Object> options = new LinkedHashMap<>();
    private final Map<String, Object> env = new LinkedHashMap<>();

    private ManagedJob(String connector) {
        this.connector = requireKey("connector", connector);
        this.name = connector;
    }

    /** A job reading the source connector whose factory identifier is {@code connector}. */
    public static ManagedJob source(String connector) {
        return new ManagedJob(connector);
    }

    /** A source option: a string, number, boolean, list or map. Keys may contain dots. */
    public ManagedJob option(String key, Object value) {
        options.put(requireKey("option key", key), value);
        return this;
    }

    /** The job name matched against {@code allowed-jobs}; default: the connector identifier. */
    public ManagedJob name(String jobName) {
        this.name = requireKey("job name", jobName);
        return this;
    }

    /** The job's parallelism (readers); default 1. */
    public ManagedJob parallelism(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1: " + n);
        }
        this.parallelism = n;
        return this;
    }

    /**
     * Keys rows by one field (a name of the produced table, or a 0-based index) instead of the
     * whole row; see {@link RowKeys#fieldKey}.
     */
    public ManagedJob keyField(String field) {
        this.keyField = field == null ? "" : field;
        return this;
    }

    /** An {@code env} option, e.g. {@code env("checkpoint.interval", 1000)}. */
    public ManagedJob env(String key, Object value) {
        String k = requireKey("env key", key);
        if (k.equals("job.mode") || k.equals("parallelism")) {
            throw new IllegalArgumentException(k + " is set by ManagedJob itself");
        }
        env.put(k, value);
        return this;
    }

    public String connector() {
        return connector;
    }

    public String name() {
        return name;
    }

    public int parallelism() {
        return parallelism;
    }

    /** The job's HOCON, with the sink filling the {@link CollectedRows} entry {@code runId}. */
    public String toHocon(String runId) {
        return toHocon(runId, Collections.<String, Object>emptyMap());
    }

    /**
     * The job's HOCON with {@code envDefaults} added to its {@code env} where the job does not set
     * the key itself ({@link LaneAHarness} adds the engine's {@code checkpoint.interval} this way).
     */
    public String toHocon(String runId, Map<String, ?> envDefaults) {
        Map<String, Object> jobEnv = new LinkedHashMap<>(env);
        for (Map.Entry<String, ?> e : envDefaults.entrySet()) {
            jobEnv.putIfAbsent(requireKey("env key", e.getKey()), e.getValue());
        }
        StringBuilder sb = new StringBuilder();
        sb.append("env {\n  job.mode = \"BATCH\"\n  parallelism = ")
                .append(parallelism)
                .append('\n');
        appendEntries(sb, jobEnv, "  ");
        sb.append("}\nsource {\n  ").append(ManagedSourceFactory.IDENTIFIER).append(" {\n");
        appendEntry(sb, "    ", ManagedSourceFactory.CONNECTOR.key(), connector);
        appendEntry(sb, "    ", ManagedSourceFactory.JOB_NAME.key(), name);
        appendEntries(sb, options, "    ");
        sb.append("  }\n}\nsink {\n  ").append(CollectingSink.IDENTIFIER).append(" {\n");
        appendEntry(sb, "    ", CollectingSinkFactory.RUN_ID.key(), runId);
        appendEntry(sb, "    ", CollectingSinkFactory.KEY_FIELD.key(), keyField);
        sb.append("  }\n}\n");
        return sb.toString();
    }

    private static void appendEntries(
            StringBuilder sb, Map<String, Object> entries, String indent) {
        for (Map.Entry<String, Object> e : entries.entrySet()) {
            appendEntry(sb, indent, e.getKey(), e.getValue());
        }
    }

    private static void appendEntry(StringBuilder sb, String indent, String key, Object value) {
        sb.append(indent).append(key).append(" = ");
        appendValue(sb, value);
        sb.append('\n');
    }

    private static void appendValue(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Collection) {
            sb.append('[');
            Iterator<?> it = ((Collection<?>) v).iterator();
            while (it.hasNext()) {
                appendValue(sb, it.next());
                if (it.hasNext()) {
                    sb.append(", ");
                }
            }
            sb.append(']');
        } else if (v instanceof Map) {
            sb.append('{');
            Iterator<? extends Map.Entry<?, ?>> it = ((Map<?, ?>) v).entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                appendQuoted(sb, String.valueOf(e.getKey()));
                sb.append(" = ");
                appendValue(sb, e.getValue());
                if (it.hasNext()) {
                    sb.append(", ");
                }
            }
            sb.append('}');
        } else {
            appendQuoted(sb, v.toString());
        }
    }

    private static void appendQuoted(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }

    private static String requireKey(String what, String key) {
        if (key == null || !KEY.matcher(key).matches()) {
            throw new IllegalArgumentException(what + " must match " + KEY + ": " + key);
        }
        return key;
    }
}
