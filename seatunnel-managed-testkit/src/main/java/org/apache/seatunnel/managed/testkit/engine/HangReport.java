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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Arrays;
import java.util.Comparator;

/**
 * What a test prints when a job did not end within its bound: the job's status, what the Lane A
 * readers of this JVM had done ({@link RuntimeStats}), and every thread's stack, so a hang that a
 * slow CI machine shows once can be read from its log instead of guessed at.
 *
 * <p>Carries no row, split id or exception text: thread names, states and frames only.
 *
 * <p>Threading: stateless; any thread.
 */
public final class HangReport {
    /** Frames printed per thread: enough to reach the engine's or the runtime's entry point. */
    static final int MAX_FRAMES = 40;

    private HangReport() {}

    /** The report for {@code jobId} on {@code zeta} as of now. */
    public static String of(EmbeddedZeta zeta, long jobId) {
        StringBuilder sb = new StringBuilder(16_384);
        sb.append("job ").append(jobId).append(" status ").append(statusOf(zeta, jobId));
        sb.append("\nLane A readers: opened ")
                .append(RuntimeStats.readersOpened())
                .append(", live ")
                .append(RuntimeStats.readersLive());
        for (RuntimeStats.Counter c :
                new RuntimeStats.Counter[] {
                    RuntimeStats.Counter.RECORDS,
                    RuntimeStats.Counter.POLL_TURNS,
                    RuntimeStats.Counter.COMMANDS_APPLIED,
                    RuntimeStats.Counter.CHECKPOINTS
                }) {
            sb.append(", ").append(c).append(' ').append(RuntimeStats.total(c));
        }
        sb.append("\nthreads:\n");
        appendThreads(sb);
        return sb.toString();
    }

    private static String statusOf(EmbeddedZeta zeta, long jobId) {
        try {
            return String.valueOf(zeta.status(jobId));
        } catch (RuntimeException e) {
            return "unknown (" + e.getClass().getSimpleName() + ")";
        }
    }

    private static void appendThreads(StringBuilder sb) {
        ThreadInfo[] threads = ManagementFactory.getThreadMXBean().dumpAllThreads(true, true);
        Arrays.sort(threads, Comparator.comparing(ThreadInfo::getThreadName));
        for (ThreadInfo t : threads) {
            sb.append('"').append(t.getThreadName()).append("\" ").append(t.getThreadState());
            if (t.getLockName() != null) {
                sb.append(" on ").append(t.getLockName());
            }
            if (t.getLockOwnerName() != null) {
                sb.append(" held by \"").append(t.getLockOwnerName()).append('"');
            }
            sb.append('\n');
            StackTraceElement[] frames = t.getStackTrace();
            for (int i = 0; i < Math.min(frames.length, MAX_FRAMES); i++) {
                sb.append("\tat ").append(frames[i]).append('\n');
            }
            if (frames.length > MAX_FRAMES) {
                sb.append("\t... ").append(frames.length - MAX_FRAMES).append(" more\n");
            }
        }
    }
}
