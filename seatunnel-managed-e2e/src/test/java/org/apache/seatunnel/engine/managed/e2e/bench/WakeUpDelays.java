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

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * How late a thread that parks for 1 ms runs again, sampled throughout a measured window: the
 * machine's scheduling delay under that window's load. It is the floor under any latency that needs
 * a woken thread, whatever the lane: the engine delivers each reader's barrier through two of them
 * (an operation thread, then a thread of its task pool), so a barrier wait cannot be shorter than
 * their wake-ups.
 *
 * <p>Threading: {@link #start} and {@link #stop} from the runner's thread; the sampler thread alone
 * writes samples until {@link #stop} joined it.
 */
final class WakeUpDelays {
    private static final long PARK_NANOS = 1_000_000;
    private static final int MAX_SAMPLES = 200_000;

    private final long[] samples = new long[MAX_SAMPLES];
    // When each sample ended, in wall-clock milliseconds (the clock of the engine's checkpoints).
    private final long[] endMillis = new long[MAX_SAMPLES];
    private int count;
    private volatile boolean running = true;
    private Thread sampler;

    private WakeUpDelays() {}

    static WakeUpDelays start() {
        WakeUpDelays d = new WakeUpDelays();
        d.sampler = new Thread(d::loop, "wake-up-delay-sampler");
        d.sampler.setDaemon(true);
        d.sampler.start();
        return d;
    }

    private void loop() {
        while (running && count < MAX_SAMPLES) {
            long t = System.nanoTime();
            LockSupport.parkNanos(PARK_NANOS);
            samples[count] = Math.max(0, System.nanoTime() - t - PARK_NANOS);
            endMillis[count] = System.currentTimeMillis();
            count++;
        }
    }

    /** Stops sampling; returns each wake-up's delay past the 1 ms park, in nanoseconds, sorted. */
    long[] stop() throws InterruptedException {
        running = false;
        sampler.join(10_000);
        if (sampler.isAlive()) {
            throw new IllegalStateException("wake-up delay sampler did not stop");
        }
        long[] out = Arrays.copyOf(samples, count);
        Arrays.sort(out);
        return out;
    }

    /**
     * After {@link #stop}: the delays of the wake-ups that ended inside one of {@code windows}
     * (wall-clock {@code [from, to]} milliseconds, e.g. each checkpoint's trigger to completion),
     * sorted: how long a woken thread waited for a core while the checkpoints ran.
     */
    long[] within(List<long[]> windows) {
        long[] out = new long[count];
        int n = 0;
        for (int i = 0; i < count; i++) {
            for (long[] w : windows) {
                if (endMillis[i] >= w[0] && endMillis[i] <= w[1]) {
                    out[n++] = samples[i];
                    break;
                }
            }
        }
        out = Arrays.copyOf(out, n);
        Arrays.sort(out);
        return out;
    }
}
