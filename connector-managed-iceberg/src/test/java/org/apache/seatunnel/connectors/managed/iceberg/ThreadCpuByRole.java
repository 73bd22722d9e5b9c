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

package org.apache.seatunnel.connectors.managed.iceberg;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Not a test: where a window's CPU went, by thread role, for the Iceberg runner's {@code
 * -Diceberg.threads=true}. The engine's task threads share one name, so a sampler tells the source
 * task from the sink task by the engine flow in its stack; and it keeps each thread's last CPU
 * time, so a thread that ended inside the window (a split fetcher) still counts. Also the process's
 * user and system CPU and the waits (parks, monitor waits) of the task threads, which is where a
 * hand-off that wakes a thread per row shows.
 *
 * <p>Threading: the sampler thread writes the maps, the runner's thread reads them.
 */
final class ThreadCpuByRole {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private static final long SAMPLE_NANOS = 20_000_000L;
    private static final Map<Long, String> ROLES = new ConcurrentHashMap<>();
    private static final Map<Long, Long> LAST_CPU = new ConcurrentHashMap<>();
    private static boolean started;

    private ThreadCpuByRole() {}

    /** What {@link #print} subtracts: CPU per thread id, waits per family, process ticks. */
    static final class Sample {
        final Map<Long, Long> cpu;
        final Map<String, Long> waits;
        final long user;
        final long system;

        private Sample(Map<Long, Long> cpu, Map<String, Long> waits, long user, long system) {
            this.cpu = cpu;
            this.waits = waits;
            this.user = user;
            this.system = system;
        }
    }

    static synchronized Sample sample() {
        if (!started) {
            started = true;
            Thread t = new Thread(ThreadCpuByRole::sampleForever, "thread-role-sampler");
            t.setDaemon(true);
            t.start();
        }
        Map<String, Long> waits = new HashMap<>();
        for (ThreadInfo info : MX.getThreadInfo(MX.getAllThreadIds())) {
            if (info != null) {
                long ns = MX.getThreadCpuTime(info.getThreadId());
                if (ns >= 0) {
                    LAST_CPU.put(info.getThreadId(), ns);
                }
                waits.merge(
                        family(info.getThreadName()),
                        info.getWaitedCount() + info.getBlockedCount(),
                        Long::sum);
            }
        }
        long[] ticks = processTicks();
        return new Sample(new HashMap<>(LAST_CPU), waits, ticks[0], ticks[1]);
    }

    static void print(String what, Sample before) {
        Sample after = sample();
        System.out.printf(
                Locale.ROOT,
                "CPU by thread role, %s (process user %d, system %d ticks of 10 ms):%n",
                what,
                after.user - before.user,
                after.system - before.system);
        Map<String, Long> byRole = new HashMap<>();
        after.cpu.forEach(
                (id, ns) ->
                        byRole.merge(
                                ROLES.getOrDefault(id, "other"),
                                ns - before.cpu.getOrDefault(id, 0L),
                                Long::sum));
        List<Map.Entry<String, Long>> top = new ArrayList<>(byRole.entrySet());
        top.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        for (Map.Entry<String, Long> e : top.subList(0, Math.min(6, top.size()))) {
            System.out.printf(Locale.ROOT, "  %8.1f ms  %s%n", e.getValue() / 1e6, e.getKey());
        }
        after.waits.entrySet().stream()
                .filter(e -> e.getKey().contains("task.thread"))
                .forEach(
                        e ->
                                System.out.printf(
                                        Locale.ROOT,
                                        "  %8d waits  %s (ended threads not counted)%n",
                                        e.getValue() - before.waits.getOrDefault(e.getKey(), 0L),
                                        e.getKey()));
    }

    private static void sampleForever() {
        for (; ; ) {
            for (ThreadInfo info : MX.getThreadInfo(MX.getAllThreadIds(), 64)) {
                if (info == null) {
                    continue;
                }
                String role = role(info);
                // A pooled task thread between jobs keeps the role it had last.
                if (role != null || !ROLES.containsKey(info.getThreadId())) {
                    ROLES.put(
                            info.getThreadId(), role != null ? role : family(info.getThreadName()));
                }
                long ns = MX.getThreadCpuTime(info.getThreadId());
                if (ns >= 0) {
                    LAST_CPU.put(info.getThreadId(), ns);
                }
            }
            LockSupport.parkNanos(SAMPLE_NANOS);
        }
    }

    private static String role(ThreadInfo info) {
        for (StackTraceElement e : info.getStackTrace()) {
            if (e.getClassName().endsWith(".SourceFlowLifeCycle")) {
                return "source task";
            }
            if (e.getClassName().endsWith(".IntermediateQueueFlowLifeCycle")) {
                return "sink task";
            }
        }
        return null;
    }

    private static String family(String threadName) {
        return threadName.replaceAll("[0-9]+", "N");
    }

    /** The process's user and system CPU in 10 ms clock ticks ({@code /proc/self/stat}). */
    private static long[] processTicks() {
        try {
            String stat =
                    new String(
                            Files.readAllBytes(new File("/proc/self/stat").toPath()),
                            StandardCharsets.US_ASCII);
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
        } catch (IOException | RuntimeException e) {
            return new long[2];
        }
    }
}
