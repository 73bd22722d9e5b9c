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

package org.apache.seatunnel.engine.managed.e2e.bench;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.SlowDiscoverySource;
import org.apache.seatunnel.engine.managed.source.coordinator.SourceAsyncWorkerPool;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceMemberService;
import org.apache.seatunnel.engine.server.checkpoint.CheckpointCoordinator;
import org.apache.seatunnel.engine.server.checkpoint.CompletedCheckpoint;
import org.apache.seatunnel.engine.server.master.JobMaster;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;

/**
 * Not a test: prints a Lane A streaming job's checkpoint duration (the engine's trigger timestamp
 * to completion, per checkpoint) p50/p99 alone and while two other Lane A jobs keep 5 s {@code
 * callAsync} discoveries running on the same member. Run on a quiet machine:
 *
 * <pre>{@code
 * ./mvnw -B -ntp -pl seatunnel-managed-e2e -am test-compile -Dspotless.check.skip
 * ./mvnw -B -ntp -pl seatunnel-managed-e2e exec:exec -Dexec.classpathScope=test \
 *   -Dexec.executable=java "-Dexec.args=-cp %classpath \
 *   org.apache.seatunnel.engine.managed.e2e.bench.AsyncIsolationRunner 30"
 * }</pre>
 *
 * <p>Threading: the main thread only.
 */
public final class AsyncIsolationRunner {
    private static final Duration BOUND = Duration.ofSeconds(60);

    private AsyncIsolationRunner() {}

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 30;
        Map<String, Object> cfg = new HashMap<>();
        cfg.put("enabled", true);
        cfg.put("allowed-jobs", Arrays.asList("bench-slow-a", "bench-slow-b", "bench-probe"));
        cfg.put(
                "allowed-connectors",
                Arrays.asList(SlowDiscoverySource.IDENTIFIER, ManagedFakeSource.IDENTIFIER));
        LaneASettings.install(cfg);
        Map<String, long[]> results = new LinkedHashMap<>();
        try (EmbeddedZeta zeta =
                EmbeddedZeta.builder("async-isolation-bench", 24150)
                        .checkpointIntervalMillis(1000)
                        .start()) {
            results.put("alone", probe(zeta, seconds, "bench-probe-1"));
            SourceAsyncWorkerPool pool =
                    ManagedSourceMemberService.of(zeta.member(0)).asyncWorkers();
            long a = zeta.submit(slowJob("bench-slow-a"));
            long b = zeta.submit(slowJob("bench-slow-b"));
            long deadline = System.nanoTime() + BOUND.toNanos();
            // Both slow coordinators have their discoveries on the workers (4 = default threads).
            while (pool.snapshot().get(SourceAsyncWorkerPool.RUNNING + "Discovery") < 4) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("slow discoveries never started");
                }
                awaitQuietly(50);
            }
            results.put("with two slow-discovery jobs", probe(zeta, seconds, "bench-probe-2"));
            zeta.cancel(a, BOUND);
            zeta.cancel(b, BOUND);
        } finally {
            LaneASettings.clear();
        }
        System.out.println();
        System.out.println(
                "Checkpoint duration of the probe job (trigger -> completed), "
                        + seconds
                        + " s each; noisy on a shared machine:");
        for (Map.Entry<String, long[]> e : results.entrySet()) {
            long[] d = e.getValue();
            System.out.printf(
                    "  %-30s n=%3d  p50=%5d ms  p99=%5d ms  max=%5d ms%n",
                    e.getKey(),
                    d.length,
                    pct(d, 50),
                    pct(d, 99),
                    d.length == 0 ? 0 : d[d.length - 1]);
        }
    }

    /** Runs the probe job for {@code seconds} and returns its checkpoint durations, sorted. */
    private static long[] probe(EmbeddedZeta zeta, long seconds, String runId) throws Exception {
        long job =
                zeta.submit(
                        "env {\n  job.mode = \"STREAMING\"\n  parallelism = 2\n"
                                + "  checkpoint.interval = 1000\n}\n"
                                + "source {\n  Managed {\n    connector = \"ManagedFake\"\n"
                                + "    job-name = \"bench-probe\"\n    split.count = 2\n"
                                + "    bounded = false\n    rows.per.second = 200\n  }\n}\n"
                                + "sink {\n  ManagedCollect {\n    run.id = \""
                                + runId
                                + "\"\n  }\n}\n");
        zeta.awaitStatus(job, JobStatus.RUNNING, BOUND);
        Map<Long, Long> durations = new HashMap<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            CompletedCheckpoint cp = latest(zeta, job);
            if (cp != null) {
                durations.putIfAbsent(
                        cp.getCheckpointId(),
                        cp.getCompletedTimestamp() - cp.getCheckpointTimestamp());
            }
            awaitQuietly(20);
        }
        zeta.cancel(job, BOUND);
        List<Long> list = new ArrayList<>(durations.values());
        Collections.sort(list);
        long[] out = new long[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }

    private static CompletedCheckpoint latest(EmbeddedZeta zeta, long jobId) throws Exception {
        JobMaster master = zeta.jobMaster(jobId);
        if (master == null) {
            return null;
        }
        CheckpointCoordinator c = master.getCheckpointManager().getCheckpointCoordinator(1);
        Field f = CheckpointCoordinator.class.getDeclaredField("latestCompletedCheckpoint");
        f.setAccessible(true);
        return (CompletedCheckpoint) f.get(c);
    }

    private static String slowJob(String name) {
        return "env {\n  job.mode = \"STREAMING\"\n  parallelism = 1\n"
                + "  checkpoint.interval = 1000\n}\n"
                + "source {\n  Managed {\n    connector = \""
                + SlowDiscoverySource.IDENTIFIER
                + "\"\n    job-name = \""
                + name
                + "\"\n    run.id = \""
                + name
                + "\"\n    discovery.burst = 2\n    discovery.millis = 5000\n"
                + "    split.count = 1\n    bounded = false\n    rows.per.second = 10\n  }\n}\n"
                + "sink {\n  ManagedCollect {\n    run.id = \""
                + name
                + "\"\n  }\n}\n";
    }

    /** The sampling loop's pause: a runner, not production code or a test. */
    private static void awaitQuietly(long millis) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(millis);
    }

    private static long pct(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
