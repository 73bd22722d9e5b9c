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

/**
 * A multi-producer, single-consumer ring whose claimed slot number is the element's sequence, so
 * the consumer sees elements in exactly the order their sequences were handed out (JCTools' MPSC
 * queues do not expose the position an offer took, and a separate sequence counter would let two
 * producers publish out of sequence order). The ring does not check capacity: callers reserve a
 * slot before claiming one (the mailbox counts commands), which makes a claim one fetch-and-add
 * that never fails or retries, where a bounded queue's offer is a compare-and-set loop.
 * MailboxQueueBenchmark compares the two.
 *
 * <p>Threading: {@link #claim} and {@link #publish} — any producer thread, never blocking; {@link
 * #poll} and {@link #hasClaimedUnpublished} — the single consumer; {@link #peek} and the gauges —
 * any thread.
 */
public final class SequencedMpscRing<E> extends RingHeadPadAfter {
    private static final AtomicLongFieldUpdater<RingTailField> TAIL =
            AtomicLongFieldUpdater.newUpdater(RingTailField.class, "tail");
    private static final AtomicLongFieldUpdater<RingHeadField> HEAD =
            AtomicLongFieldUpdater.newUpdater(RingHeadField.class, "head");

    private final AtomicReferenceArray<E> slots;
    private final int mask;

    /** A ring with at least {@code minCapacity} slots (rounded up to a power of two). */
    public SequencedMpscRing(int minCapacity) {
        if (minCapacity <= 0 || minCapacity > (1 << 30)) {
            throw new IllegalArgumentException("ring capacity out of range: " + minCapacity);
        }
        int size = minCapacity == 1 ? 1 : Integer.highestOneBit(minCapacity - 1) << 1;
        this.slots = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
    }

    public int capacity() {
        return mask + 1;
    }

    /**
     * Producer: takes the next sequence. The caller must hold a reserved slot (fewer than {@link
     * #capacity()} elements claimed and not yet consumed) and must {@link #publish} it promptly:
     * the consumer waits at an unpublished sequence.
     */
    public long claim() {
        return TAIL.getAndIncrement(this);
    }

    /** The slot of a sequence, for callers that keep per-slot side data in their own arrays. */
    public int slotOf(long sequence) {
        return (int) (sequence & mask);
    }

    /**
     * Producer: publishes a claimed sequence. A release store, so plain writes the caller made to
     * its side arrays for this slot beforehand are visible to the consumer that polls it.
     */
    public void publish(long sequence, E element) {
        slots.lazySet(slotOf(sequence), element);
    }

    /** Consumer: the next sequence to poll. */
    public long head() {
        return head;
    }

    /**
     * Consumer: the element at {@link #head()} if it has been published, else null. Side data of
     * its slot stays valid until the caller releases the slot's reservation.
     */
    public E poll() {
        long h = head;
        int slot = slotOf(h);
        E element = slots.get(slot);
        if (element == null) {
            return null;
        }
        slots.lazySet(slot, null);
        // An ordered store: only this thread writes the head, and a full fence per poll would
        // cost more than the rest of the poll.
        HEAD.lazySet(this, h + 1);
        return element;
    }

    /** Consumer: true if the head sequence is claimed but not yet published. */
    public boolean hasClaimedUnpublished() {
        long h = head;
        return tail > h && slots.get(slotOf(h)) == null;
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
        return slots.get(slotOf(head));
    }

    /** True if some sequence was claimed and not yet consumed. Any thread; approximate. */
    public boolean hasClaimed() {
        return tail != head;
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
