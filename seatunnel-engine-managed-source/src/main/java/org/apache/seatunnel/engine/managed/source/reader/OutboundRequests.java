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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.concurrent.GuardedBy;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;

/**
 * The requests one reader attempt makes of its coordinator — split requests and reader-to-
 * coordinator source events — handed to the transport without waiting for it, numbered, coalesced
 * and bounded.
 *
 * <p>Threading: {@link #requestSplit} and {@link #sendEvent} may be called from any thread (a poll
 * turn on the task thread, or a connector's own thread); {@link #open} and {@link #close} by the
 * host. All state is guarded by this object's monitor, which is held only for bookkeeping and the
 * non-blocking hand-off to the {@link Sender}, never across a wait; answers arrive on the
 * transport's thread. Life cycle: created before the connector's reader (whose {@code open()} may
 * already ask), {@link #open opened} once the attempt's registration is on its way to the
 * coordinator, {@link #close closed} when the attempt ends.
 *
 * <p>Why: on the engine's own reader context these calls are remote operations that the calling
 * thread joins, so a reader asking for a split inside a poll turn stalled the loop for a round trip
 * (and behind it every barrier). Here they become commands on the attempt's own transport lane.
 *
 * <ul>
 *   <li><b>Fenced.</b> Requests carry the attempt id; the coordinator takes them only from the
 *       attempt registered for the subtask. Before {@link #open} they wait here (the registration
 *       must reach the coordinator first; the transport keeps one lane's order); after {@link
 *       #close} they are dropped and counted.
 *   <li><b>Deduplicated.</b> Every request sent gets the next sequence number of the attempt, in
 *       the order the transport receives them, so the coordinator can answer a redelivered one
 *       {@code DUPLICATE} instead of acting twice. Split requests made while an earlier one has no
 *       answer yet are coalesced into one that is sent when that answer arrives: the enumerator may
 *       already have answered the first with a split the reader finished since, so a later request
 *       is never dropped, and at most one waits.
 *   <li><b>Bounded.</b> At most {@code reader.max-outstanding-requests} requests are waiting for
 *       their answer (or for {@link #open}). At the bound a split request is remembered (one flag)
 *       and sent when an answer frees a slot; a source event is refused with {@link
 *       RejectedExecutionException}, since dropping it silently would break the connector's own
 *       protocol.
 * </ul>
 *
 * <p>A request the coordinator refuses, or that the transport could not deliver before its
 * deadline, is counted and not retried here: the transport already retried it, and a reader that
 * still has no split asks again on its next turn.
 */
public final class OutboundRequests {

    /** Hands a request to the transport. */
    public interface Sender {
        /**
         * Sends without blocking; the future completes with the coordinator's final answer or
         * exceptionally when the transport gives up.
         */
        CompletableFuture<AdmissionAck> send(CommandKind kind, long sequence, byte[] payload);
    }

    private static final byte[] EMPTY = new byte[0];

    private final int maxOutstanding;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong coalesced = new AtomicLong();
    private final AtomicLong atBound = new AtomicLong();
    private final AtomicLong undelivered = new AtomicLong();
    private final AtomicLong fenced = new AtomicLong();

    @GuardedBy("this")
    private Sender sender;

    @GuardedBy("this")
    private boolean closed;

    @GuardedBy("this")
    private long nextSequence = 1;

    @GuardedBy("this")
    private final ArrayDeque<Request> deferred = new ArrayDeque<>();

    // Requests sent and unanswered, plus those deferred until open. Written under the monitor,
    // read by gauges.
    private volatile int outstanding;

    // A split request sent (or deferred) and not answered yet.
    @GuardedBy("this")
    private boolean splitRequestPending;

    // A split request asked for at the bound, sent when a slot frees.
    @GuardedBy("this")
    private boolean splitRequestWanted;

    /**
     * @param maxOutstanding {@code reader.max-outstanding-requests}
     */
    public OutboundRequests(int maxOutstanding) {
        if (maxOutstanding < 1) {
            throw new IllegalArgumentException(
                    "reader.max-outstanding-requests must be positive: " + maxOutstanding);
        }
        this.maxOutstanding = maxOutstanding;
    }

    /** The connector's {@code sendSplitRequest}: never blocks, never throws. */
    public void requestSplit() {
        Request r;
        synchronized (this) {
            if (closed) {
                fenced.incrementAndGet();
                return;
            }
            if (splitRequestPending || splitRequestWanted) {
                // Remembered, not dropped: the enumerator may already have answered the pending
                // request with a split that the reader finished before the pending request's
                // admission came back (the split and the admission travel on different paths),
                // so this one asks for more and must reach the enumerator after it.
                coalesced.incrementAndGet();
                splitRequestWanted = true;
                return;
            }
            if (outstanding >= maxOutstanding) {
                atBound.incrementAndGet();
                splitRequestWanted = true;
                return;
            }
            splitRequestPending = true;
            r = admit(CommandKind.SPLIT_REQUEST, EMPTY);
        }
        watch(r);
    }

    /**
     * The connector's {@code sendSourceEventToEnumerator}, with the event already in its versioned
     * bytes. Never blocks.
     *
     * @throws RejectedExecutionException when {@code reader.max-outstanding-requests} requests are
     *     outstanding; the event was not sent
     */
    public void sendEvent(byte[] payload) {
        Request r;
        synchronized (this) {
            if (closed) {
                fenced.incrementAndGet();
                return;
            }
            if (outstanding >= maxOutstanding) {
                atBound.incrementAndGet();
                throw new RejectedExecutionException(
                        "reader.max-outstanding-requests ("
                                + maxOutstanding
                                + ") requests to the coordinator are unanswered; the source"
                                + " event was not sent (try again on a later poll turn)");
            }
            r = admit(CommandKind.READER_EVENT, payload.clone());
        }
        watch(r);
    }

    /** Binds the transport and sends what waited for it, in the order it was asked. */
    public void open(Sender s) {
        List<Request> now = new ArrayList<>();
        synchronized (this) {
            if (closed || sender != null) {
                return;
            }
            sender = s;
            for (Request r = deferred.pollFirst(); r != null; r = deferred.pollFirst()) {
                dispatch(r);
                now.add(r);
            }
        }
        for (Request r : now) {
            watch(r);
        }
    }

    /** Ends the attempt's requests: later ones are dropped, deferred ones are never sent. */
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            fenced.addAndGet(deferred.size());
            outstanding -= deferred.size();
            deferred.clear();
            splitRequestWanted = false;
        }
    }

    // Under the monitor: takes a slot, then sends now or defers until open.
    @GuardedBy("this")
    private Request admit(CommandKind kind, byte[] payload) {
        outstanding++;
        Request r = new Request(kind, payload);
        if (sender == null) {
            deferred.addLast(r);
            return null;
        }
        dispatch(r);
        return r;
    }

    // Under the monitor, so sequence order is the order the transport receives requests in.
    @GuardedBy("this")
    private void dispatch(Request r) {
        long seq = nextSequence++;
        sent.incrementAndGet();
        try {
            r.answer = sender.send(r.kind, seq, r.payload);
        } catch (RuntimeException e) {
            CompletableFuture<AdmissionAck> failed = new CompletableFuture<>();
            failed.completeExceptionally(e);
            r.answer = failed;
        }
    }

    // Outside the monitor: an answer that is already there runs its callback inline.
    private void watch(Request r) {
        if (r != null) {
            r.answer.whenComplete((ack, err) -> answered(r, ack, err));
        }
    }

    private void answered(Request r, AdmissionAck ack, Throwable err) {
        if (err != null || ack == null || !ack.status().isAdmitted()) {
            undelivered.incrementAndGet();
        }
        Request next = null;
        synchronized (this) {
            outstanding--;
            if (r.kind == CommandKind.SPLIT_REQUEST) {
                splitRequestPending = false;
            }
            if (splitRequestWanted && !closed && outstanding < maxOutstanding) {
                splitRequestWanted = false;
                splitRequestPending = true;
                next = admit(CommandKind.SPLIT_REQUEST, EMPTY);
            }
        }
        watch(next);
    }

    // ------------------------------------------------------------------ metrics (any thread)

    /** Requests handed to the transport. */
    public long sent() {
        return sent.get();
    }

    /** Requests sent or deferred and not answered yet (gauge). */
    public int outstanding() {
        return outstanding;
    }

    /** Split requests merged into one that had no answer yet. */
    public long coalesced() {
        return coalesced.get();
    }

    /** Requests that found the bound reached (split requests deferred, events refused). */
    public long atBound() {
        return atBound.get();
    }

    /** Requests the coordinator refused or the transport could not deliver. */
    public long undelivered() {
        return undelivered.get();
    }

    /** Requests made after the attempt ended, or deferred and never sent: dropped. */
    public long fenced() {
        return fenced.get();
    }

    public int maxOutstanding() {
        return maxOutstanding;
    }

    /** One request. {@code answer} is written under the monitor before the request is watched. */
    private static final class Request {
        final CommandKind kind;
        final byte[] payload;
        CompletableFuture<AdmissionAck> answer;

        Request(CommandKind kind, byte[] payload) {
            this.kind = kind;
            this.payload = payload;
        }
    }
}
