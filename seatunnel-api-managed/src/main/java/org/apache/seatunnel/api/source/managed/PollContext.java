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

package org.apache.seatunnel.api.source.managed;

import org.apache.seatunnel.api.annotation.Experimental;

/**
 * The budget of one poll turn, handed to {@link ManagedSourceReader#pollNextManaged}.
 *
 * <p>Threading: valid only on the calling thread and only for the duration of the call it was
 * passed to; the runtime reuses the instance for the next turn. The remaining budgets shrink as the
 * reader emits records through the collector of the same turn.
 */
@Experimental
public interface PollContext {

    /** Records the reader may still emit in this turn; never negative. */
    int remainingRecords();

    /**
     * Serialized bytes the reader may still emit in this turn, as estimated by the runtime's row
     * size estimator; never negative.
     */
    long remainingBytes();

    /**
     * The soft deadline of this turn in the runtime clock's nanoseconds ({@link #nanoTime()}); a
     * reader waiting for data must not wait past it.
     */
    long deadlineNanos();

    /** The runtime clock, so readers and tests agree on time. */
    long nanoTime();

    /**
     * True once any budget (records, bytes or time) is used up, a control or terminal signal is
     * waiting, or the reader marked a schema change in this turn ({@code
     * Collector.markSchemaChangeBeforeCheckpoint()} / {@code markSchemaChangeAfterCheckpoint()}). A
     * compliant reader returns from {@code pollNextManaged} soon after this turns true.
     */
    boolean shouldYield();
}
