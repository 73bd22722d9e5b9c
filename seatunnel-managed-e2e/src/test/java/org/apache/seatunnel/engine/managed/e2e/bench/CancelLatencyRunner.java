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

import java.time.Duration;
import java.util.Arrays;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.e2e.CancelRun;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;

/**
 * Cancel → CANCELED on one embedded Zeta 2.3.8 engine, for a Lane A reader that waits inside a poll
 * turn for up to 30 s and honours only {@code wakeup()} (interrupts are ignored): {@code runs}
 * (default 20) cancels after 2 warm-up runs, each timed from the cancel request to the master's
 * completion of the job, printed with p50, p99 (nearest rank) and max, and the part until the
 * reader's {@code wakeup()} was called. Not a test: run it on a quiet machine with {@code
 * tools/run-cancel-latency.sh [runs]}.
 */
public final class CancelLatencyRunner {
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final int WARMUP = 2;

    private CancelLatencyRunner() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        CancelRun.installSettings();
        long[] total = new long[runs];
        long[] toWakeup = new long[runs];
        long[] toClosed = new long[runs];
        try (EmbeddedZeta zeta = EmbeddedZeta.builder("cancel-latency-bench", 24560).start()) {
            for (int i = -WARMUP; i < runs; i++) {
                CancelRun.Result r = CancelRun.run(zeta, BOUND);
                if (r.status != JobStatus.CANCELED || r.waitsWoken != 1) {
                    throw new IllegalStateException(
                            "run "
                                    + i
                                    + " ended "
                                    + r.status
                                    + " (waits woken "
                                    + r.waitsWoken
                                    + "): "
                                    + r.error);
                }
                System.out.printf(
                        "%s %2d: cancel -> CANCELED %7.1f ms, cancel -> wakeup() %6.2f ms,"
                                + " cancel -> reader closed %7.1f ms%n",
                        i < 0 ? "warm-up" : "run    ",
                        i < 0 ? i + WARMUP + 1 : i + 1,
                        r.cancelToEndNanos / 1e6,
                        r.cancelToWakeupNanos / 1e6,
                        r.cancelToReaderClosedNanos / 1e6);
                if (i >= 0) {
                    total[i] = r.cancelToEndNanos;
                    toWakeup[i] = r.cancelToWakeupNanos;
                    toClosed[i] = r.cancelToReaderClosedNanos;
                }
            }
        } finally {
            LaneASettings.clear();
        }
        System.out.printf(
                "%nLane A cancel of a reader waiting 30 s inside a turn, %d runs on one engine:%n"
                        + "  cancel -> CANCELED  p50 %.1f ms  p99 %.1f ms  max %.1f ms"
                        + " (goal: p99 <= 100 ms)%n"
                        + "  cancel -> wakeup()  p50 %.2f ms  p99 %.2f ms  max %.2f ms%n"
                        + "  cancel -> reader closed by the engine  p50 %.1f ms  p99 %.1f ms"
                        + "  max %.1f ms (the rest is the engine's own job-state path)%n",
                runs,
                rank(total, 0.50) / 1e6,
                rank(total, 0.99) / 1e6,
                rank(total, 1.0) / 1e6,
                rank(toWakeup, 0.50) / 1e6,
                rank(toWakeup, 0.99) / 1e6,
                rank(toWakeup, 1.0) / 1e6,
                rank(toClosed, 0.50) / 1e6,
                rank(toClosed, 0.99) / 1e6,
                rank(toClosed, 1.0) / 1e6);
        System.exit(0);
    }

    /** Nearest-rank percentile. */
    static long rank(long[] values, double p) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
