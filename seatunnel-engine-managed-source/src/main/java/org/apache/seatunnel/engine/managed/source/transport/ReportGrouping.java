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

package org.apache.seatunnel.engine.managed.source.transport;

import java.util.Objects;
import java.util.function.LongToIntFunction;

/**
 * When the checkpoint reports waiting for one coordinator of one source go out as a batch: the
 * grouping and window policy of {@link CheckpointReportLane}.
 *
 * <p>Threading: immutable; {@code localReaders} is read from any thread (the member's registry of
 * readers, itself thread-safe).
 *
 * <p>A group is flushed, checked in this order, when it holds {@code
 * transport.report-batch-max-reports} reports ({@link FlushCause#COUNT_BOUND}); when it holds a
 * report from every reader of the source registered on this member ({@link
 * FlushCause#ALL_REPORTED}), the usual case; or when its oldest report has waited {@code
 * transport.report-batch-window} ({@link FlushCause#WINDOW}).
 */
public final class ReportGrouping {
    /** Why a group was flushed. */
    public enum FlushCause {
        ALL_REPORTED,
        WINDOW,
        COUNT_BOUND
    }

    private final long windowMillis;
    private final int maxReports;
    private final LongToIntFunction localReaders;

    /**
     * @param windowMillis {@code transport.report-batch-window}; 0 sends each report at once
     * @param maxReports {@code transport.report-batch-max-reports}
     * @param localReaders the number of readers of a source runtime registered on this member
     */
    public ReportGrouping(long windowMillis, int maxReports, LongToIntFunction localReaders) {
        if (maxReports < 1) {
            throw new IllegalArgumentException(
                    "transport.report-batch-max-reports must be positive: " + maxReports);
        }
        this.windowMillis = windowMillis;
        this.maxReports = maxReports;
        this.localReaders = Objects.requireNonNull(localReaders, "localReaders");
    }

    public long windowMillis() {
        return windowMillis;
    }

    public int maxReports() {
        return maxReports;
    }

    /**
     * Reports in the inbox that wake the sender thread at once: every local reader of the source,
     * at most {@link #maxReports}.
     */
    int flushCount(long sourceRuntimeId) {
        return Math.min(maxReports, Math.max(1, localReaders.applyAsInt(sourceRuntimeId)));
    }

    /**
     * Why the group must be flushed now, or null if it waits.
     *
     * @param waiting reports in the group
     * @param distinctReaders distinct subtasks among them
     * @param oldestMillis when its oldest report arrived
     */
    FlushCause causeToFlush(
            long sourceRuntimeId,
            int waiting,
            int distinctReaders,
            long oldestMillis,
            long nowMillis) {
        if (waiting >= maxReports) {
            return FlushCause.COUNT_BOUND;
        }
        if (distinctReaders >= localReaders.applyAsInt(sourceRuntimeId)) {
            return FlushCause.ALL_REPORTED;
        }
        if (nowMillis - oldestMillis >= windowMillis) {
            return FlushCause.WINDOW;
        }
        return null;
    }

    /** How long until the window of a group whose oldest report arrived at {@code oldestMillis}. */
    long untilWindow(long oldestMillis, long nowMillis) {
        return Math.max(0, oldestMillis + windowMillis - nowMillis);
    }
}
