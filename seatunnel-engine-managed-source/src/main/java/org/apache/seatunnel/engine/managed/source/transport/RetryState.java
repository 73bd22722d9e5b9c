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
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.retry.RetryPolicy;

/**
 * The one retry and deadline state machine of the sender: the invocations of one unit of delivery
 * (an ordered stream of {@link CommandSender}, a batch of {@link CheckpointReportLane}), its
 * backoff and its last answer, and the decoding of an answer into one ack per command sent.
 *
 * <p>Threading: confined to the sender thread of the {@link SenderScheduler} that runs its owner;
 * never shared.
 *
 * <p><b>Outcomes of one send</b> of a {@link CommandSender} stream:
 *
 * <ul>
 *   <li>a final status ({@code ACCEPTED}, {@code DUPLICATE}, {@code STALE_TARGET}, {@code
 *       TERMINAL_REJECTED}, {@code UNSUPPORTED_PROTOCOL}, {@code INVALID_PAYLOAD}) completes its
 *       future normally with that ack;
 *   <li>{@code RETRY_LATER} and transport failures are retried by the {@link RetryPolicy} ({@code
 *       retry.*}): first the ack's {@code retryAfterMillis} (or {@code retry.initial-backoff}),
 *       doubling up to {@code retry.max-backoff}; timers, never a sleeping thread. The backoff
 *       restarts whenever the stream makes progress;
 *   <li>when the head of a stream runs out of attempts ({@code retry.max-attempts} without
 *       progress), passes its deadline, or gets an answer that does not decode, it ends: with its
 *       last {@code RETRY_LATER} ack (completed normally), a {@link CommandTimeoutException}, its
 *       last transport failure or an {@link IllegalStateException}; and the stream is broken: every
 *       send queued behind it fails with {@link CommandStreamBrokenException}, since delivering
 *       them would overtake it. A later send opens a new stream.
 * </ul>
 *
 * <p>An attempt is begun with {@link #begin}, which numbers it; an answer for an older number is
 * stale (a late or duplicated answer) and ignored by {@link #isCurrent}. After an attempt failed,
 * {@link #nextDelay} gives the backoff before the next one ({@code retry.*}: the receiver's hint or
 * {@code retry.initial-backoff}, doubling up to {@code retry.max-backoff}) or {@link
 * RetryPolicy#EXHAUSTED} after {@code retry.max-attempts} without {@link #progress}. Whether the
 * next attempt still fits its deadline is the owner's rule, since a stream ends at its head's
 * deadline while a batch drops only its expired entries: {@link #fitsDeadline} is the stream's.
 */
final class RetryState {
    private final RetryPolicy policy;
    private RetryPolicy.Backoff backoff;
    private int attempts;
    private AdmissionAck lastAck;
    private Throwable lastFailure;
    private boolean lastWasFailure;

    /** The timer of the next attempt while one is armed. */
    Cancellable retryTimer;

    RetryState(RetryPolicy policy) {
        this.policy = policy;
    }

    /** Starts an attempt; returns its number. */
    int begin() {
        return ++attempts;
    }

    /** Whether {@code attemptNo} is the attempt in flight, so its answer counts. */
    boolean isCurrent(int attemptNo) {
        return attemptNo == attempts;
    }

    /** Invocations made so far. */
    int attempts() {
        return attempts;
    }

    /** A command got a final answer: the backoff starts over and the last answer is forgotten. */
    void progress() {
        backoff = null;
        lastAck = null;
        lastFailure = null;
        lastWasFailure = false;
    }

    /** The attempt failed in the transport (member gone, call timeout, connection loss). */
    void failed(Throwable failure) {
        lastFailure = unwrap(failure);
        lastWasFailure = true;
    }

    /** The attempt was answered {@code RETRY_LATER} with {@code ack}. */
    void refused(AdmissionAck ack) {
        lastAck = ack;
        lastWasFailure = false;
    }

    /**
     * The delay before the next attempt, or {@link RetryPolicy#EXHAUSTED} when none is left.
     *
     * @param hintMillis the receiver's {@code retryAfterMillis}, or 0 for none
     */
    long nextDelay(long hintMillis) {
        if (backoff == null) {
            backoff = policy.newBackoff();
        }
        return backoff.next(hintMillis);
    }

    /** Whether the backoff was used for more than the first attempt. */
    boolean retried() {
        return backoff != null && backoff.attempts() > 1;
    }

    /**
     * Whether an attempt after {@code delayMillis} from {@code nowMillis} starts before the
     * deadline.
     */
    static boolean fitsDeadline(long nowMillis, long delayMillis, long deadlineMillis) {
        return nowMillis + delayMillis < deadlineMillis;
    }

    AdmissionAck lastAck() {
        return lastAck;
    }

    Throwable lastFailure() {
        return lastFailure;
    }

    /** Whether the last attempt failed in the transport rather than being answered. */
    boolean lastWasFailure() {
        return lastWasFailure;
    }

    /** Forgets the backoff, after the unit ended. */
    void reset() {
        backoff = null;
    }

    /**
     * The acks of one answer, one per command sent, or null if it does not decode or does not
     * answer every command.
     *
     * @param batch whether the commands went as one {@link CommandBatchCodec} batch
     */
    static List<AdmissionAck> decode(byte[] response, int count, boolean batch) {
        if (!batch) {
            AdmissionAckCodec.DecodeResult d = AdmissionAckCodec.decode(response);
            if (!d.isSuccess()) {
                return null;
            }
            List<AdmissionAck> one = new ArrayList<>(1);
            one.add(d.ack());
            return one;
        }
        CommandBatchCodec.AckResult d = CommandBatchCodec.decodeAcks(response, count);
        if (!d.isSuccess()) {
            return null;
        }
        if (!d.opened()) {
            // The receiver refused the batch as a whole: the same final answer for every command.
            List<AdmissionAck> all = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                all.add(
                        AdmissionAck.rejected(
                                d.batchStatus(),
                                SourceCommandTransportAdapter.UNKNOWN_ATTEMPT,
                                d.reasonCode()));
            }
            return all;
        }
        return d.acks().size() == count ? d.acks() : null;
    }

    /** The cause inside the wrappers a future adds. */
    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** The failure of a command that got no final admission before its deadline. */
    CommandTimeoutException timeout(Object what, Object target, String unit, AdmissionAck ack) {
        return new CommandTimeoutException(
                "no final admission for "
                        + what
                        + " to "
                        + target
                        + " before its deadline after "
                        + attempts
                        + unit
                        + "; last answer: "
                        + (ack == null ? "none" : ack),
                attempts,
                ack,
                lastFailure);
    }
}
