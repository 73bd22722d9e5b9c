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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * How long the engine's barrier thread waited for a source task's checkpoint lock, the same way on
 * both lanes: a JFR recording of every contended monitor enter while a scenario runs, keeping the
 * ones made in Zeta's {@code SourceFlowLifeCycle.triggerBarrier}. That is the wait the barrier
 * handoff removes — the barrier racing the reader's poll call for the lock — apart from the
 * engine's delivery of the barrier to the task, which the probe's barrier wait includes.
 *
 * <p>Threading: {@link #start} and {@link #stop} from the runner's thread.
 */
final class BarrierLockWaits {
    private static final String LIFE_CYCLE =
            "org.apache.seatunnel.engine.server.task.flow.SourceFlowLifeCycle";

    private final Recording recording = new Recording();

    private BarrierLockWaits() {
        recording.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
    }

    /**
     * Starts and stops an empty recording, for a runner's {@code main} before its engine starts.
     * The first recording of a JVM starts the flight recorder itself, and started mid-run that made
     * the stock path run at a tenth of its rate for tens of seconds afterwards: six of six runs of
     * the checkpoint-at-scale pass whose first recording started after the engine had Lane B's
     * warm-up settle at 40,000–320,000 rows/s instead of about 1 M, and three of three whose JVM
     * started with a recording did not.
     */
    static void startFlightRecorder() {
        try (Recording r = new Recording()) {
            r.start();
            r.stop();
        }
    }

    static BarrierLockWaits start() {
        BarrierLockWaits w = new BarrierLockWaits();
        w.recording.start();
        return w;
    }

    /**
     * Stops recording; returns the lock wait of each of {@code barriers} barriers taken meanwhile,
     * in nanoseconds, sorted: a barrier that found the lock free waited 0.
     */
    long[] stop(int barriers) throws IOException {
        recording.stop();
        Path file = Files.createTempFile("barrier-lock-waits", ".jfr");
        try {
            recording.dump(file);
            long[] waits = new long[0];
            int n = 0;
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                if (inTriggerBarrier(e)) {
                    if (n == waits.length) {
                        waits = Arrays.copyOf(waits, Math.max(16, 2 * n));
                    }
                    waits[n++] = e.getDuration().toNanos();
                }
            }
            long[] out = new long[Math.max(barriers, n)];
            System.arraycopy(waits, 0, out, out.length - n, n);
            Arrays.sort(out);
            return out;
        } finally {
            recording.close();
            Files.deleteIfExists(file);
        }
    }

    /**
     * The monitor was entered by {@code triggerBarrier} itself (the top frame): its only monitor is
     * the checkpoint lock. Monitors entered further down, inside the snapshot and the ack, are
     * other waits.
     */
    private static boolean inTriggerBarrier(RecordedEvent e) {
        if (e.getStackTrace() == null || e.getStackTrace().getFrames().isEmpty()) {
            return false;
        }
        RecordedFrame top = e.getStackTrace().getFrames().get(0);
        return "triggerBarrier".equals(top.getMethod().getName())
                && LIFE_CYCLE.equals(top.getMethod().getType().getName());
    }
}
