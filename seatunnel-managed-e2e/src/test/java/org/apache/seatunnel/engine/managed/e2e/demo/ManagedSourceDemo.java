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

package org.apache.seatunnel.engine.managed.e2e.demo;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.core.job.JobResult;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.zeta.member.OperatorSettings;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;

/**
 * The README's main command: starts a real SeaTunnel Zeta 2.3.8 member in this JVM on loopback,
 * enables Lane A from {@code config/seatunnel.yaml}, runs the bounded job of {@code
 * config/managed-demo.conf}, shows progress, and ends with what the runtime did. Exits 0 when the
 * job finished with every row exactly once.
 */
public final class ManagedSourceDemo {
    private ManagedSourceDemo() {}

    public static void main(String[] args) throws Exception {
        Path root = findRoot();
        Path yaml = root.resolve("config/seatunnel.yaml");
        Path job = root.resolve(args.length > 0 ? args[0] : "config/managed-demo.conf");
        // The engine plans with this file exactly as a member reads $SEATUNNEL_HOME's.
        System.setProperty(OperatorSettings.CONFIG_PROPERTY, yaml.toString());
        ManagedSourceConfig cfg = OperatorSettings.current();
        System.out.println("== Managed source demo ==");
        System.out.println("settings: " + yaml + " -> " + cfg);
        System.out.println("job:      " + job);
        String hocon = new String(Files.readAllBytes(job), StandardCharsets.UTF_8);
        String runId = "demo-" + System.currentTimeMillis();
        hocon = hocon.replace("${RUN_ID}", runId);
        int expectedRows = expectedRows(hocon);

        int exit = 1;
        try (EmbeddedZeta zeta =
                EmbeddedZeta.builder("managed-demo-" + ProcessHandle.current().pid(), 23100)
                        .checkpointIntervalMillis(1000)
                        .start()) {
            RuntimeStats.reset();
            long t0 = System.nanoTime();
            long jobId = zeta.submit(hocon);
            CompletableFuture<JobResult> done = zeta.completion(jobId);
            while (!done.isDone()) {
                try {
                    done.get(500, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    System.out.printf(
                            "  %5.1fs  rows %,d / %,d   checkpoints %d   status %s%n",
                            (System.nanoTime() - t0) / 1e9,
                            RuntimeStats.total(RuntimeStats.Counter.RECORDS),
                            expectedRows,
                            RuntimeStats.total(RuntimeStats.Counter.CHECKPOINTS),
                            zeta.status(jobId));
                }
            }
            JobResult result = done.get();
            double secs = (System.nanoTime() - t0) / 1e9;
            CollectedRows rows = CollectedRows.of(runId);
            Map<String, Integer> seen = CollectedRows.multiset(rows.written());
            boolean exactlyOnce =
                    seen.size() == expectedRows && seen.values().stream().allMatch(c -> c == 1);
            summary(result, secs, rows.written().size(), expectedRows, exactlyOnce);
            exit = result.getStatus() == JobStatus.FINISHED && exactlyOnce ? 0 : 1;
        }
        System.exit(exit);
    }

    private static void summary(
            JobResult result, double secs, int rows, int expected, boolean exactlyOnce) {
        System.out.println();
        System.out.println("== What the Lane A runtime did ==");
        System.out.printf("job status            %s in %.2f s%n", result.getStatus(), secs);
        System.out.printf(
                "rows at the sink      %,d of %,d expected, exactly once: %s%n",
                rows, expected, exactlyOnce ? "yes" : "NO");
        System.out.printf("Lane A readers        %d%n", RuntimeStats.readersOpened());
        System.out.printf(
                "commands applied      %d (duplicates skipped %d, held for the coordinator cut %d)%n",
                RuntimeStats.total(RuntimeStats.Counter.COMMANDS_APPLIED),
                RuntimeStats.total(RuntimeStats.Counter.DUPLICATES_SKIPPED),
                RuntimeStats.total(RuntimeStats.Counter.CUT_DEFERRALS));
        System.out.printf(
                "reader checkpoints    %d (reported to the coordinator %d; the rest proved nothing"
                        + " new)%n",
                RuntimeStats.total(RuntimeStats.Counter.CHECKPOINTS),
                RuntimeStats.total(RuntimeStats.Counter.CHECKPOINTS)
                        - RuntimeStats.total(RuntimeStats.Counter.CHECKPOINT_REPORTS_UNCHANGED));
        StringBuilder adm = new StringBuilder();
        for (Map.Entry<AdmissionStatus, Long> e : RuntimeStats.admissions().entrySet()) {
            if (e.getValue() > 0) {
                adm.append(e.getKey()).append('=').append(e.getValue()).append(' ');
            }
        }
        System.out.printf("admissions by status  %s%n", adm.toString().trim());
        long turns = RuntimeStats.total(RuntimeStats.Counter.POLL_TURNS);
        System.out.printf(
                "poll turns            %,d (%.1f rows/turn, soft overruns %d, hard wakeups %d)%n",
                turns,
                turns == 0
                        ? 0.0
                        : RuntimeStats.total(RuntimeStats.Counter.RECORDS) / (double) turns,
                RuntimeStats.total(RuntimeStats.Counter.SOFT_OVERRUNS),
                RuntimeStats.total(RuntimeStats.Counter.HARD_WAKEUPS));
        long lingered = RuntimeStats.total(RuntimeStats.Counter.POLLS_LINGERED);
        if (lingered > 0) {
            System.out.printf(
                    "polls lingered        %,d (turns reader.poll-linger deferred)%n", lingered);
        }
        System.out.printf(
                "poll bytes            %,d estimated from sampled rows (rows the sizer rejected %d)%n",
                RuntimeStats.total(RuntimeStats.Counter.BYTES),
                RuntimeStats.total(RuntimeStats.Counter.UNSIZED_RECORDS));
        long[] waits = RuntimeStats.barrierWaitsSorted();
        if (waits.length == 0) {
            System.out.println("barrier wait          (no barrier taken)");
        } else {
            System.out.printf(
                    "barrier wait          p50 %.3f ms  p99 %.3f ms  max %.3f ms  (%d barriers)%n",
                    pct(waits, 50) / 1e6,
                    pct(waits, 99) / 1e6,
                    waits[waits.length - 1] / 1e6,
                    waits.length);
        }
        if (result.getError() != null) {
            System.out.println("error: " + result.getError());
        }
    }

    static long pct(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static int expectedRows(String hocon) {
        return intOption(hocon, "split.count", 5) * intOption(hocon, "rows.per.split", 20);
    }

    private static int intOption(String hocon, String key, int dflt) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile(
                                java.util.regex.Pattern.quote(key) + "\\s*=\\s*(\\d+)")
                        .matcher(hocon);
        return m.find() ? Integer.parseInt(m.group(1)) : dflt;
    }

    private static Path findRoot() {
        Path p = Paths.get("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("config/seatunnel.yaml"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("run from inside the repository (config/ not found)");
        }
        return p;
    }
}
