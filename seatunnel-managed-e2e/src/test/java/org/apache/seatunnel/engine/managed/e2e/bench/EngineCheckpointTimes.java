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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.server.checkpoint.CheckpointCoordinator;
import org.apache.seatunnel.engine.server.checkpoint.CompletedCheckpoint;
import org.apache.seatunnel.engine.server.checkpoint.PendingCheckpoint;
import org.apache.seatunnel.engine.server.master.JobMaster;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;

/**
 * The engine's own checkpoint timing of one running job, the same on both lanes: a daemon thread
 * reads the checkpoint coordinator's latest completed checkpoint (a private field, hence
 * reflection) every 50 ms and keeps trigger → completed of each checkpoint triggered after the
 * sampler started (wall-clock milliseconds, as the engine records them).
 *
 * <p>Threading: {@link #start} and {@link #stop} from the runner's thread; the sampler thread alone
 * adds samples until {@link #stop} joined it.
 */
final class EngineCheckpointTimes {
    private final EmbeddedZeta zeta;
    private final long jobId;
    private final long sinceMillis = System.currentTimeMillis();
    private final Set<Long> seen = new HashSet<>();
    // Checkpoints seen pending, by id: {trigger, last seen pending} in ms since the start. Those
    // that never complete (a final checkpoint superseded them, or the job ended) are listed too.
    private final Map<Long, long[]> pending = new TreeMap<>();
    private final List<Long> durations = new ArrayList<>();
    private final List<String> timeline = new ArrayList<>();
    private volatile boolean running = true;
    private Thread sampler;

    private EngineCheckpointTimes(EmbeddedZeta zeta, long jobId) {
        this.zeta = zeta;
        this.jobId = jobId;
    }

    static EngineCheckpointTimes start(EmbeddedZeta zeta, long jobId) {
        EngineCheckpointTimes t = new EngineCheckpointTimes(zeta, jobId);
        t.sampler = new Thread(t::loop, "engine-checkpoint-sampler");
        t.sampler.setDaemon(true);
        t.sampler.start();
        return t;
    }

    private void loop() {
        Object pace = new Object();
        while (running) {
            try {
                sample();
                synchronized (pace) {
                    pace.wait(50);
                }
            } catch (InterruptedException e) {
                return;
            } catch (ReflectiveOperationException | RuntimeException e) {
                // The job may be ending; the next sample tries again.
            }
        }
    }

    private void sample() throws ReflectiveOperationException {
        JobMaster master = zeta.jobMaster(jobId);
        if (master == null) {
            return;
        }
        CheckpointCoordinator coordinator =
                master.getCheckpointManager().getCheckpointCoordinator(1);
        Field p = CheckpointCoordinator.class.getDeclaredField("pendingCheckpoints");
        p.setAccessible(true);
        long now = System.currentTimeMillis() - sinceMillis;
        for (Object o : ((Map<?, ?>) p.get(coordinator)).values()) {
            PendingCheckpoint pc = (PendingCheckpoint) o;
            if (pc.getCheckpointTimestamp() >= sinceMillis) {
                pending.computeIfAbsent(
                                        pc.getCheckpointId(),
                                        k ->
                                                new long[] {
                                                    pc.getCheckpointTimestamp() - sinceMillis, 0
                                                })[1] =
                        now;
            }
        }
        Field f = CheckpointCoordinator.class.getDeclaredField("latestCompletedCheckpoint");
        f.setAccessible(true);
        CompletedCheckpoint c = (CompletedCheckpoint) f.get(coordinator);
        if (c == null
                || c.getCheckpointTimestamp() < sinceMillis
                || !seen.add(c.getCheckpointId())) {
            return;
        }
        durations.add(
                TimeUnit.MILLISECONDS.toNanos(
                        c.getCompletedTimestamp() - c.getCheckpointTimestamp()));
        timeline.add(
                String.format(
                        Locale.ROOT,
                        "checkpoint %d (%s): triggered at +%d ms, completed at +%d ms",
                        c.getCheckpointId(),
                        c.getCheckpointType(),
                        c.getCheckpointTimestamp() - sinceMillis,
                        c.getCompletedTimestamp() - sinceMillis));
    }

    /**
     * Each checkpoint seen, trigger and completion in ms from {@link #start} (after {@link #stop}),
     * then those seen pending that never completed; a checkpoint that completed within 50 ms of the
     * next one, or of the job's end, may be missing.
     */
    List<String> timeline() {
        List<String> out = new ArrayList<>(timeline);
        for (Map.Entry<Long, long[]> e : pending.entrySet()) {
            if (!seen.contains(e.getKey())) {
                out.add(
                        String.format(
                                Locale.ROOT,
                                "checkpoint %d: triggered at +%d ms, still pending at +%d ms, never"
                                        + " completed",
                                e.getKey(),
                                e.getValue()[0],
                                e.getValue()[1]));
            }
        }
        return out;
    }

    /** Stops sampling; returns trigger → completed per checkpoint, in nanoseconds, sorted. */
    long[] stop() throws InterruptedException {
        running = false;
        sampler.interrupt();
        sampler.join(10_000);
        long[] out = durations.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(out);
        return out;
    }
}
