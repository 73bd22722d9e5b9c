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

package org.apache.seatunnel.engine.managed.source.reader;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * A multi-producer, single-consumer queue whose claimed position is the element's sequence, so the
 * consumer sees elements in exactly the order their sequences were handed out (JCTools' MPSC queues
 * do not expose the position an offer took, and a separate sequence counter would let two producers
 * publish out of sequence order). The ring does not check capacity: callers reserve a slot before
 * claiming one (the mailbox counts commands), which makes a claim one fetch-and-add that never
 * fails or retries, where a bounded queue's offer is a compare-and-set loop. MailboxQueueBenchmark
 * compares the two.
 *
 * <p>Memory follows what is queued, not the bound: the slots are fixed-size chunks linked in
 * sequence order, each holding {@link #chunkSize()} consecutive sequences and used once. The
 * producer that first reaches a chunk links it; the consumer drops a chunk when it moves past it.
 * An idle ring holds one chunk; since the callers' reservation keeps fewer than {@link #capacity()}
 * sequences between the consumer and the newest claim, at most {@code capacity / chunkSize + 2}
 * chunks are reachable at any time. (Slots allocated at the bound cost every reader mailbox its
 * full command bound in memory from the start, whether or not a command ever waits.)
 *
 * <p>Threading: {@link #claim} and {@link #publish} — any producer thread, never blocking; {@link
 * #poll} and {@link #hasClaimedUnpublished} — the single consumer; {@link #peek}, {@link
 * #reachableChunks} and the other gauges — any thread.
 */
public final class SequencedMpscRing<E> extends RingHeadPadAfter {
    /** Sequences per chunk for rings larger than this; a chunk is about 300 bytes. */
    public static final int DEFAULT_CHUNK_SIZE = 64;

    private static final AtomicLongFieldUpdater<RingTailField> TAIL =
            AtomicLongFieldUpdater.newUpdater(RingTailField.class, "tail");
    private static final AtomicLongFieldUpdater<RingHeadField> HEAD =
            AtomicLongFieldUpdater.newUpdater(RingHeadField.class, "head");

    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<SequencedMpscRing, Chunk> NEWEST =
            AtomicReferenceFieldUpdater.newUpdater(SequencedMpscRing.class, Chunk.class, "newest");

    private final int capacity;
    private final int chunkShift;
    private final int chunkMask;

    // Written by the consumer only (when it moves to the next chunk); read by producers that
    // claimed a sequence older than the newest chunk, and by gauges.
    private volatile Chunk<E> oldest;

    // The newest linked chunk as far as producers know: only moves forward (compare-and-set).
    private volatile Chunk<E> newest;

    /**
     * A ring for up to {@code capacity} claimed and unconsumed sequences, in chunks of {@link
     * #DEFAULT_CHUNK_SIZE} (fewer for a smaller ring).
     */
    public SequencedMpscRing(int capacity) {
        this(capacity, DEFAULT_CHUNK_SIZE);
    }

    /** As {@link #SequencedMpscRing(int)} with a chunk size; rounded up to a power of two. */
    public SequencedMpscRing(int capacity, int chunkSize) {
        if (capacity <= 0 || capacity > (1 << 30)) {
            throw new IllegalArgumentException("ring capacity out of range: " + capacity);
        }
        if (chunkSize <= 0 || chunkSize > (1 << 20)) {
            throw new IllegalArgumentException("ring chunk size out of range: " + chunkSize);
        }
        int size = roundUpToPowerOfTwo(Math.min(capacity, chunkSize));
        this.capacity = capacity;
        this.chunkShift = Integer.numberOfTrailingZeros(size);
        this.chunkMask = size - 1;
        Chunk<E> first = new Chunk<>(0, size);
        this.oldest = first;
        this.newest = first;
    }

    private static int roundUpToPowerOfTwo(int n) {
        return n == 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    /** The most sequences its callers may hold claimed and unconsumed. */
    public int capacity() {
        return capacity;
    }

    public int chunkSize() {
        return chunkMask + 1;
    }

    /**
     * Producer: takes the next sequence. The caller must hold a reserved slot (fewer than {@link
     * #capacity()} sequences claimed and not yet consumed) and must {@link #publish} it promptly:
     * the consumer waits at an unpublished sequence.
     */
    public long claim() {
        return TAIL.getAndIncrement(this);
    }

    /**
     * Producer: publishes a claimed sequence. A release store, so plain writes the caller made to
     * the element beforehand are visible to the consumer that polls it.
     */
    public void publish(long sequence, E element) {
        chunkOf(sequence >>> chunkShift).lazySet((int) (sequence & chunkMask), element);
    }

    /**
     * Producer: the chunk of an unconsumed sequence, linking new chunks up to it. The consumer
     * waits at the first unpublished sequence, so the caller's chunk is never older than {@link
     * #oldest}; and every chunk from there to the newest is linked, so the walk finds it.
     */
    private Chunk<E> chunkOf(long index) {
        Chunk<E> c = newest;
        if (c.index > index) {
            // A producer that claimed before others moved on: its chunk is between the two.
            c = oldest;
        }
        while (c.index < index) {
            Chunk<E> next = c.next;
            if (next == null) {
                Chunk<E> linked = new Chunk<>(c.index + 1, chunkMask + 1);
                next = c.link(linked) ? linked : c.next;
            }
            c = next;
        }
        for (Chunk<E> n = newest; n.index < c.index; n = newest) {
            if (NEWEST.compareAndSet(this, n, c)) {
                break;
            }
        }
        return c;
    }

    /** Consumer: the next sequence to poll. */
    public long head() {
        return head;
    }

    /** Consumer: the element at {@link #head()} if it has been published, else null. */
    public E poll() {
        long h = head;
        Chunk<E> c = consumerChunk(h);
        if (c == null) {
            return null;
        }
        int slot = (int) (h & chunkMask);
        E element = c.get(slot);
        if (element == null) {
            return null;
        }
        // The chunk is never written again at this slot; the store lets the element be collected.
        c.lazySet(slot, null);
        // An ordered store: only this thread writes the head, and a full fence per poll would
        // cost more than the rest of the poll.
        HEAD.lazySet(this, h + 1);
        return element;
    }

    /**
     * Consumer: the chunk of the head sequence, moving {@link #oldest} onto it when the head
     * crossed into the next chunk; null if no producer has linked that chunk yet (so nothing in it
     * is published).
     */
    private Chunk<E> consumerChunk(long h) {
        Chunk<E> c = oldest;
        if (c.index == h >>> chunkShift) {
            return c;
        }
        Chunk<E> next = c.next;
        if (next != null) {
            oldest = next;
        }
        return next;
    }

    /** Consumer: true if the head sequence is claimed but not yet published. */
    public boolean hasClaimedUnpublished() {
        long h = head;
        if (tail <= h) {
            return false;
        }
        Chunk<E> c = consumerChunk(h);
        return c == null || c.get((int) (h & chunkMask)) == null;
    }

    /** True if the head element is published. Any thread; approximate. */
    public boolean isHeadPublished() {
        return peek() != null;
    }

    /**
     * The head element if it is published, else null, without consuming it. Any thread; approximate
     * (the consumer may take it meanwhile), so only for elements that stay valid once consumed.
     */
    public E peek() {
        long h = head;
        long index = h >>> chunkShift;
        Chunk<E> c = oldest;
        if (c.index != index) {
            // The consumer is about to move on, or moved on since head was read: its next chunk.
            c = c.index + 1 == index ? c.next : null;
        }
        return c == null ? null : c.get((int) (h & chunkMask));
    }

    /** True if some sequence was claimed and not yet consumed. Any thread; approximate. */
    public boolean hasClaimed() {
        return tail != head;
    }

    /** Chunks from the consumer's to the newest: the ring's memory. Any thread; approximate. */
    public int reachableChunks() {
        // Read oldest first: the newest hint may trail a chunk the consumer already entered.
        Chunk<E> o = oldest;
        return (int) Math.max(1, newest.index - o.index + 1);
    }

    /** A chunk of consecutive sequences, and the link to the next chunk once a producer made it. */
    private static final class Chunk<E> extends AtomicReferenceArray<E> {
        private static final long serialVersionUID = 1L;

        @SuppressWarnings("rawtypes")
        private static final AtomicReferenceFieldUpdater<Chunk, Chunk> NEXT =
                AtomicReferenceFieldUpdater.newUpdater(Chunk.class, Chunk.class, "next");

        /** Sequence / chunk size of every sequence this chunk holds. */
        final long index;

        volatile Chunk<E> next;

        Chunk(long index, int size) {
            super(size);
            this.index = index;
        }

        boolean link(Chunk<E> n) {
            return NEXT.compareAndSet(this, null, n);
        }
    }
}

// Padding: producers fetch-and-add the tail while the consumer writes the head on every poll;
// on one cache line (or on the line holding the fields both read) each write would evict the
// other side's copy. Superclass fields are laid out first, so the hierarchy fixes the order
// that fields within one class would not.
abstract class RingTailPadBefore {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

abstract class RingTailField extends RingTailPadBefore {
    volatile long tail;
}

abstract class RingTailPadAfter extends RingTailField {
    long p10, p11, p12, p13, p14, p15, p16, p17;
    long p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

abstract class RingHeadField extends RingTailPadAfter {
    // Consumer-only writes (ordered stores); volatile so gauges on other threads read it fresh.
    volatile long head;
}

abstract class RingHeadPadAfter extends RingHeadField {
    long p20, p21, p22, p23, p24, p25, p26, p27;
    long p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}
