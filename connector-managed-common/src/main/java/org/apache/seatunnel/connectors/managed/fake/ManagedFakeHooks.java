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

package org.apache.seatunnel.connectors.managed.fake;

import java.io.Serializable;
import org.apache.seatunnel.api.source.SourceEvent;

/**
 * Where a test or a benchmark observes or perturbs a ManagedFake job: each method is called at one
 * point of the source's life, with no effect by default. Shipped ManagedFake jobs use {@link
 * #NONE}; fault injection and probes are hook implementations in test code.
 *
 * <p>Threading: implementations must be serializable (they travel inside the source) and
 * thread-safe: reader hooks run on reader loops, enumerator hooks on the enumerator's threads.
 */
public interface ManagedFakeHooks extends Serializable {

    /** No hooks. */
    ManagedFakeHooks NONE = new ManagedFakeHooks() {};

    /**
     * Before a reader emits a row; {@code rowsEmitted} counts the rows this reader attempt emitted
     * so far. Throwing fails the reader there, before the row or its position.
     */
    default void beforeRow(int subtask, long rowsEmitted) {}

    /** A rate-limited row that was due at {@code dueNanos} ({@code System.nanoTime}) is emitted. */
    default void rowEmitted(long dueNanos) {}

    /** A reader's snapshot of {@code checkpointId} begins. */
    default void readerSnapshot(long checkpointId) {}

    /** A reader received a source event from the enumerator. */
    default void sourceEventReceived(int subtask, SourceEvent event) {}

    /** The enumerator's snapshot of {@code checkpointId} begins; may block or throw. */
    default void enumeratorSnapshot(long checkpointId) throws Exception {}

    /** The enumerator heard that {@code checkpointId} completed; may throw. */
    default void enumeratorCheckpointComplete(long checkpointId) throws Exception {}
}
