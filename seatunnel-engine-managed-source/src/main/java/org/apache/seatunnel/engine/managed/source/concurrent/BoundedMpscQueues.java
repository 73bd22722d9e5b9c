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

package org.apache.seatunnel.engine.managed.source.concurrent;

import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscChunkedArrayQueue;
import org.jctools.util.Pow2;

/**
 * Bounded multi-producer, single-consumer queues whose memory follows what is queued rather than
 * their bound: a queue larger than one chunk is JCTools' chunked MPSC queue, which starts with one
 * chunk, links another only while the ones it has are full, and drops a chunk once the consumer has
 * passed it. The bound is the same as an array queue's of that capacity (rounded up to a power of
 * two, exactly that many elements), so the full-queue behaviour callers test does not change; only
 * a queue that never fills no longer costs its whole bound from the start (a coordinator's
 * 65,536-slot completion queue is 256 KiB of references as an array queue).
 *
 * <p>Threading: stateless; each queue is safe for any number of producers and one consumer.
 */
public final class BoundedMpscQueues {
    /** Slots per chunk: 1 KiB of references with compressed pointers. */
    public static final int CHUNK_SIZE = 256;

    private BoundedMpscQueues() {}

    /** A queue of at most {@code capacity} (rounded up to a power of two) elements. */
    public static <E> MessagePassingQueue<E> create(int capacity) {
        return create(capacity, CHUNK_SIZE);
    }

    /** As {@link #create(int)} with a chunk size; a capacity within one chunk is one array. */
    public static <E> MessagePassingQueue<E> create(int capacity, int chunkSize) {
        if (capacity <= 0 || capacity > (1 << 30)) {
            throw new IllegalArgumentException("queue capacity out of range: " + capacity);
        }
        int bound = Pow2.roundToPowerOfTwo(capacity);
        int chunk = Pow2.roundToPowerOfTwo(Math.max(2, chunkSize));
        // The chunked queue needs a bound of at least 4 and more than one chunk.
        if (bound < 4 || bound <= chunk) {
            return new MpscArrayQueue<>(capacity);
        }
        return new MpscChunkedArrayQueue<>(chunk, capacity);
    }
}
