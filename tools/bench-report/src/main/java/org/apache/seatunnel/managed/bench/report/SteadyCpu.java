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

package org.apache.seatunnel.managed.bench.report;

import com.sun.management.OperatingSystemMXBean;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * The process CPU a window spent, and the part of it the JIT compiler threads spent: the gate
 * judges CPU in steady state, process CPU less compilation. A paced or idle job uses a few percent
 * of one core, and a compilation burst in one lane's window (the JIT promotes code that runs rarely
 * minutes after it first ran) moved such a figure by half between two windows of the same lane.
 *
 * <p>Threading: immutable samples, any thread.
 */
public final class SteadyCpu {
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    // Linux reports a thread's CPU in clock ticks of 1/100 s on every platform this runs on.
    private static final long NANOS_PER_TICK = 10_000_000L;

    private final long processNanos;
    private final long compilerNanos;

    private SteadyCpu(long processNanos, long compilerNanos) {
        this.processNanos = processNanos;
        this.compilerNanos = compilerNanos;
    }

    public static SteadyCpu now() {
        return new SteadyCpu(OS.getProcessCpuTime(), compilerNanos());
    }

    /** Process CPU since {@code start}, in nanoseconds. */
    public long processSince(SteadyCpu start) {
        return processNanos - start.processNanos;
    }

    /** The JIT compiler threads' CPU since {@code start}, in nanoseconds. */
    public long compilerSince(SteadyCpu start) {
        return Math.max(0, compilerNanos - start.compilerNanos);
    }

    /** Process CPU less the compiler threads' since {@code start}, in nanoseconds. */
    public long steadySince(SteadyCpu start) {
        return Math.max(0, processSince(start) - compilerSince(start));
    }

    /**
     * CPU of the compiler threads ({@code C1 CompilerThre}, {@code C2 CompilerThre}) from {@code
     * /proc/self/task}; where that cannot be read, the JIT's own compilation time (elapsed, which
     * on busy cores overstates its CPU).
     */
    private static long compilerNanos() {
        File[] tasks = new File("/proc/self/task").listFiles();
        if (tasks == null) {
            return ManagementFactory.getCompilationMXBean().getTotalCompilationTime() * 1_000_000L;
        }
        long ticks = 0;
        for (File t : tasks) {
            String stat;
            try {
                stat =
                        new String(
                                Files.readAllBytes(new File(t, "stat").toPath()),
                                StandardCharsets.UTF_8);
            } catch (IOException e) {
                continue; // the thread ended meanwhile
            }
            int open = stat.indexOf('(');
            int close = stat.lastIndexOf(')');
            if (open < 0 || close < open) {
                continue;
            }
            String name = stat.substring(open + 1, close);
            if (!name.startsWith("C1 Compiler") && !name.startsWith("C2 Compiler")) {
                continue;
            }
            // After the name: state, then fields 4.. of stat(5); utime and stime are 14 and 15.
            String[] f = stat.substring(close + 2).split(" ");
            ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
        return ticks * NANOS_PER_TICK;
    }
}
