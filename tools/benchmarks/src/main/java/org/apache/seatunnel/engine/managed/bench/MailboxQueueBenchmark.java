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

package org.apache.seatunnel.engine.managed.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.reader.SequencedMpscRing;
import org.jctools.queues.MpscArrayQueue;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The mailbox's queue against JCTools' bounded MPSC queue. Each variant does what the mailbox needs
 * from its queue: a bounded slot (a counted reservation, released by the consumer, exactly as the
 * mailbox counts commands), a sequence, and publication to the single consumer.
 *
 * <ul>
 *   <li>{@code sequencedRing} — {@link SequencedMpscRing}: the claimed slot is the sequence, so
 *       consumer order is sequence order;
 *   <li>{@code jctoolsWithSequence} — a sequence from a separate counter, then {@code
 *       MpscArrayQueue.offer}: one more atomic per enqueue, and two producers can publish out of
 *       sequence order;
 *   <li>{@code jctoolsOfferOnly} — the library alone (its own capacity check, no sequence): the
 *       floor a library queue sets, without what the mailbox needs.
 * </ul>
 *
 * <p>{@code roundTrip}: one thread enqueues and dequeues, the uncontended cost per command. {@code
 * transfer}: producer threads against one consumer thread ({@code -tg 1,4}, {@code -tg 1,16}: JMH
 * orders a group's methods by name, so the consumer count comes first and must stay 1); the {@code
 * transferred} counter is the rate of commands that made it through (full answers excluded).
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx1g"})
public class MailboxQueueBenchmark {
    static final int CAPACITY = 1024;
    static final Object ELEMENT = new Object();

    @Param({"sequencedRing", "jctoolsWithSequence", "jctoolsOfferOnly"})
    public String queue;

    private int mode;
    SequencedMpscRing<Object> ring;
    MpscArrayQueue<Object> jctools;
    final AtomicLong sequence = new AtomicLong();
    final AtomicInteger reserved = new AtomicInteger();

    /** Per-thread outcome counters, reported by JMH as rates. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counts {
        public long transferred;
        public long full;
    }

    @Setup(Level.Trial)
    public void setUp() {
        ring = new SequencedMpscRing<>(CAPACITY);
        jctools = new MpscArrayQueue<>(CAPACITY);
        mode = "sequencedRing".equals(queue) ? 0 : "jctoolsWithSequence".equals(queue) ? 1 : 2;
    }

    @Benchmark
    @Group("roundTrip")
    public Object roundTrip() {
        if (enqueue() < 0) {
            throw new IllegalStateException("a lone thread found the queue full");
        }
        return dequeue();
    }

    @Benchmark
    @Group("transfer")
    @GroupThreads(4)
    public long produce(Counts counts) {
        long s = enqueue();
        if (s < 0) {
            counts.full++;
        }
        return s;
    }

    @Benchmark
    @Group("transfer")
    @GroupThreads(1)
    public Object consume(Counts counts) {
        Object e = dequeue();
        if (e != null) {
            counts.transferred++;
        }
        return e;
    }

    /** Returns the sequence, or -1 when full (the mailbox would answer RETRY_LATER). */
    private long enqueue() {
        switch (mode) {
            case 0:
                if (!reserve()) {
                    return -1;
                }
                long s = ring.claim();
                ring.publish(s, ELEMENT);
                return s;
            case 1:
                if (!reserve()) {
                    return -1;
                }
                long t = sequence.getAndIncrement();
                if (!jctools.offer(ELEMENT)) {
                    throw new IllegalStateException("reserved slot but the queue was full");
                }
                return t;
            default:
                return jctools.offer(ELEMENT) ? 0 : -1;
        }
    }

    private Object dequeue() {
        Object e = mode == 0 ? ring.poll() : jctools.poll();
        if (e != null && mode != 2) {
            reserved.decrementAndGet();
        }
        return e;
    }

    private boolean reserve() {
        for (; ; ) {
            int c = reserved.get();
            if (c >= CAPACITY) {
                return false;
            }
            if (reserved.compareAndSet(c, c + 1)) {
                return true;
            }
        }
    }
}
