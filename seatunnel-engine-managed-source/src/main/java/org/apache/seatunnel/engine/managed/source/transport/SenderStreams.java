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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;

/**
 * The open streams of one {@link CommandSender} and the hand-over of new sends from callers to the
 * sender thread: admission against the per-stream bound, the pump wake-up, and retiring a stream
 * that has nothing left.
 *
 * <p>Threading: every method may be called from any thread. A stream's caller-side fields ({@code
 * incoming}, {@code size}, {@code pumpScheduled}, {@code closed}) are read and written only inside
 * {@link ConcurrentHashMap#compute} on the stream's key, so its bin is their lock; the sender
 * thread's fields are not touched here except by {@link #closeAll}, which runs after the sender
 * thread stopped taking tasks.
 */
final class SenderStreams {
    /** What {@link #offer} returns when the stream is full. */
    static final SenderStream FULL =
            new SenderStream(
                    new SenderStream.Key("full", 0, 0, CommandSender.Lane.TO_READER),
                    "full",
                    RetryPolicy.SINGLE_ATTEMPT);

    private final ConcurrentMap<SenderStream.Key, SenderStream> streams = new ConcurrentHashMap<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final RetryPolicy retryPolicy;
    private final int maxQueuedPerStream;
    private final TransportMetrics metrics;

    SenderStreams(RetryPolicy retryPolicy, int maxQueuedPerStream, TransportMetrics metrics) {
        this.retryPolicy = retryPolicy;
        this.maxQueuedPerStream = maxQueuedPerStream;
        this.metrics = metrics;
    }

    /**
     * Queues {@code p} behind the earlier sends of its stream, opening the stream if needed.
     *
     * @return the stream when its pump must be scheduled now, null when a pump already is, or
     *     {@link #FULL} when {@code maxQueuedPerStream} sends wait already ({@code p} not queued)
     */
    SenderStream offer(SenderStream.Key key, Object target, SenderStream.Pending p) {
        SenderStream[] result = new SenderStream[1];
        streams.compute(
                key,
                (k, st) -> {
                    SenderStream s = st == null ? new SenderStream(k, target, retryPolicy) : st;
                    if (s.size >= maxQueuedPerStream) {
                        result[0] = FULL;
                        return s;
                    }
                    s.incoming.addLast(p);
                    s.size++;
                    if (!s.pumpScheduled) {
                        s.pumpScheduled = true;
                        result[0] = s;
                    }
                    return s;
                });
        if (result[0] != FULL) {
            pending.incrementAndGet();
        }
        return result[0];
    }

    /** Moves what callers queued into the stream's own queue. Sender thread. */
    void takeIncoming(SenderStream s) {
        streams.computeIfPresent(
                s.key,
                (k, cur) -> {
                    if (cur == s) {
                        s.waiting.addAll(s.incoming);
                        s.incoming.clear();
                        s.pumpScheduled = false;
                    }
                    return cur;
                });
    }

    /** One send of {@code s} is done: it leaves the stream's bound. Sender thread. */
    void finished(SenderStream s) {
        pending.decrementAndGet();
        streams.computeIfPresent(
                s.key,
                (k, cur) -> {
                    if (cur == s) {
                        s.size--;
                    }
                    return cur;
                });
    }

    /** Removes a stream with nothing queued, in flight or waiting for a timer. Sender thread. */
    void retireIfIdle(SenderStream s) {
        streams.computeIfPresent(
                s.key,
                (k, cur) -> {
                    if (cur != s) {
                        return cur;
                    }
                    if (!s.incoming.isEmpty() || s.pumpScheduled) {
                        // Taken by the pump already scheduled for it.
                        return cur;
                    }
                    return s.waiting.isEmpty() && s.inFlight == 0 && s.retry.retryTimer == null
                            ? null
                            : cur;
                });
    }

    /**
     * Ends the head with {@code headAck} (completed normally) or {@code headFailure}, and fails
     * everything behind it: delivering those would overtake the head. Sender thread.
     */
    void breakStream(SenderStream s, Throwable headFailure, AdmissionAck headAck) {
        SenderStream.Pending head = s.waiting.pollFirst();
        if (headAck != null) {
            metrics.recordFinal(headAck.status());
            head.future.complete(headAck);
        } else {
            head.future.completeExceptionally(
                    headFailure != null
                            ? headFailure
                            : new IllegalStateException("no answer for " + head.env.commandKind()));
        }
        finished(s);
        List<SenderStream.Pending> behind = new ArrayList<>(s.waiting);
        s.waiting.clear();
        behind.addAll(detach(s));
        if (!behind.isEmpty()) {
            metrics.streamsBroken.incrementAndGet();
            CommandStreamBrokenException broken =
                    new CommandStreamBrokenException(
                            "not sent: "
                                    + head.env.commandKind()
                                    + " ahead of it in the stream to "
                                    + s.key
                                    + " was not admitted",
                            headFailure);
            for (SenderStream.Pending p : behind) {
                p.future.completeExceptionally(broken);
                dropped(1);
            }
        }
        s.retry.reset();
    }

    /**
     * Closes and removes a broken stream; returns the sends callers queued that it had not taken
     * yet. Sender thread.
     */
    private List<SenderStream.Pending> detach(SenderStream s) {
        List<SenderStream.Pending> behind = new ArrayList<>();
        streams.computeIfPresent(
                s.key,
                (k, cur) -> {
                    if (cur != s) {
                        return cur;
                    }
                    behind.addAll(s.incoming);
                    s.incoming.clear();
                    s.closed = true;
                    return null;
                });
        return behind;
    }

    /** Closes and removes every stream; returns every send not yet finished. */
    List<SenderStream.Pending> closeAll() {
        List<SenderStream.Pending> dropped = new ArrayList<>();
        for (SenderStream.Key key : streams.keySet()) {
            streams.computeIfPresent(
                    key,
                    (k, s) -> {
                        s.closed = true;
                        dropped.addAll(s.waiting);
                        dropped.addAll(s.incoming);
                        s.waiting.clear();
                        s.incoming.clear();
                        return null;
                    });
        }
        return dropped;
    }

    /** Sends dropped outside {@link #finished}: they leave the pending count. */
    void dropped(int count) {
        pending.addAndGet(-count);
    }

    /** Commands in flight or queued, over all streams; approximate. */
    int pendingCount() {
        return pending.get();
    }

    /** Open streams; approximate. */
    int size() {
        return streams.size();
    }
}
