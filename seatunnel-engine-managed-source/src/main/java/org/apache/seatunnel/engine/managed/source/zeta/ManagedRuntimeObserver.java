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

package org.apache.seatunnel.engine.managed.source.zeta;

import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;

/**
 * Sees what the Lane A hosts of this JVM do, for tools that embed an engine (a test harness, a
 * demo's report); production members have none. Implementations are found once, through {@link
 * java.util.ServiceLoader} entries named after this interface on the runtime's class path, so the
 * shipped runtime holds no counters of its own for them.
 *
 * <p>Threading: called on engine threads (the task thread for open and close, the checkpoint thread
 * for barriers, the restoring thread for refusals), concurrently for different readers.
 * Implementations must be thread-safe, must not block and must not throw; an exception is logged
 * and ignored so an observer can never fail a reader.
 */
public interface ManagedRuntimeObserver {
    /** A Lane A reader opened; its counters stay live until {@link #readerClosed}. */
    void readerOpened(ReaderMailbox mailbox, ReaderLoopMetrics metrics);

    /** The reader loop took a barrier {@code waitNanos} after the engine asked for the snapshot. */
    void barrierTaken(long waitNanos);

    /** The reader closed; {@code metrics} hold its final counts. */
    void readerClosed(ReaderMailbox mailbox, ReaderLoopMetrics metrics);

    /** A restore was refused (lane or capability digest mismatch) with this operator message. */
    void restoreRefused(String reason);

    /** A Lane A coordinator opened in {@code epoch} (restored from a checkpoint, or fresh). */
    default void coordinatorOpened(
            long jobId, long sourceRuntimeId, long epoch, boolean restored) {}
}
