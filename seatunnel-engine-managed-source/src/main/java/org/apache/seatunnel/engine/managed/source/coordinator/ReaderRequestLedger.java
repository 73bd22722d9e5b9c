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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Which reader requests (split requests, reader events) a coordinator already acted on: per
 * subtask, the attempt and the highest request sequence it took, so a request the transport
 * delivers again (its answer was lost and the sender retried) gets {@code DUPLICATE} instead of a
 * second effect (STIP-31 invariant 6).
 *
 * <p>Threading: {@link #isNew} and {@link #taken} run on operation threads, lock-free; each
 * subtask's entry is one immutable value replaced by compare-and-set. A reader attempt numbers its
 * requests in the order its single transport lane delivers them, one at a time, so sequences of one
 * attempt arrive in increasing order and "at most the highest taken" is exactly "already taken".
 * Another attempt of the subtask starts its own sequence; the {@link CoordinatorFence} has already
 * refused attempts that are not the registered one.
 */
public final class ReaderRequestLedger {
    /** The sequence of a frame that carries none: never deduplicated. */
    public static final long NO_SEQUENCE = 0;

    private final AtomicReferenceArray<Taken> taken;

    public ReaderRequestLedger(int parallelism) {
        this.taken = new AtomicReferenceArray<>(parallelism);
    }

    /** False if {@code attempt} of {@code subtask} already had request {@code sequence} taken. */
    public boolean isNew(int subtask, long attempt, long sequence) {
        if (sequence == NO_SEQUENCE) {
            return true;
        }
        Taken t = taken.get(subtask);
        return t == null || t.attempt != attempt || sequence > t.sequence;
    }

    /** Records that request {@code sequence} of {@code attempt} was handed to the coordinator. */
    public void taken(int subtask, long attempt, long sequence) {
        if (sequence == NO_SEQUENCE) {
            return;
        }
        Taken next = new Taken(attempt, sequence);
        for (; ; ) {
            Taken t = taken.get(subtask);
            if (t != null && t.attempt == attempt && t.sequence >= sequence) {
                return;
            }
            if (taken.compareAndSet(subtask, t, next)) {
                return;
            }
        }
    }

    private static final class Taken {
        final long attempt;
        final long sequence;

        Taken(long attempt, long sequence) {
            this.attempt = attempt;
            this.sequence = sequence;
        }
    }
}
