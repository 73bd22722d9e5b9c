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

package org.apache.seatunnel.engine.managed.source.retry;

/**
 * How often and how far apart one command is retried: exponential backoff from {@code
 * retry.initial-backoff}, doubling up to {@code retry.max-backoff}, at most {@code
 * retry.max-attempts} attempts in all (the first send included). Retry {@code n} (the attempt
 * {@code n + 1}) waits {@code min(max-backoff, max(hint, initial-backoff * 2^(n-1)))}, where the
 * hint is the receiver's {@code retryAfterMillis} of a {@code RETRY_LATER} answer (0 for none): a
 * hint raises a delay, never lowers it, and is capped like any delay.
 *
 * <p>Threading: immutable, any thread. Each retried command takes its own {@link Backoff}, owned by
 * the thread that retries it.
 */
public final class RetryPolicy {
    public static final long DEFAULT_INITIAL_BACKOFF_MILLIS = 10;
    public static final long DEFAULT_MAX_BACKOFF_MILLIS = 1000;
    public static final int DEFAULT_MAX_ATTEMPTS = 120;

    /** A delay of {@link Backoff#next} when the command must not be retried again. */
    public static final long EXHAUSTED = -1;

    private static final RetryPolicy DEFAULTS =
            new RetryPolicy(
                    DEFAULT_INITIAL_BACKOFF_MILLIS,
                    DEFAULT_MAX_BACKOFF_MILLIS,
                    DEFAULT_MAX_ATTEMPTS);

    /** One attempt, no retry: for a caller that retries the command itself. */
    public static final RetryPolicy SINGLE_ATTEMPT =
            new RetryPolicy(DEFAULT_INITIAL_BACKOFF_MILLIS, DEFAULT_MAX_BACKOFF_MILLIS, 1);

    private final long initialBackoffMillis;
    private final long maxBackoffMillis;
    private final int maxAttempts;

    /**
     * @throws IllegalArgumentException when a bound is not positive or the maximum backoff is below
     *     the initial one
     */
    public RetryPolicy(long initialBackoffMillis, long maxBackoffMillis, int maxAttempts) {
        if (initialBackoffMillis <= 0 || maxBackoffMillis <= 0 || maxAttempts <= 0) {
            throw new IllegalArgumentException(
                    "retry bounds must be positive: initial "
                            + initialBackoffMillis
                            + " ms, max "
                            + maxBackoffMillis
                            + " ms, attempts "
                            + maxAttempts);
        }
        if (maxBackoffMillis < initialBackoffMillis) {
            throw new IllegalArgumentException(
                    "retry.max-backoff ("
                            + maxBackoffMillis
                            + " ms) must not be below retry.initial-backoff ("
                            + initialBackoffMillis
                            + " ms)");
        }
        this.initialBackoffMillis = initialBackoffMillis;
        this.maxBackoffMillis = maxBackoffMillis;
        this.maxAttempts = maxAttempts;
    }

    /** STIP-31's defaults: 10 ms doubling to 1 s, 120 attempts (about two minutes). */
    public static RetryPolicy defaults() {
        return DEFAULTS;
    }

    public long initialBackoffMillis() {
        return initialBackoffMillis;
    }

    public long maxBackoffMillis() {
        return maxBackoffMillis;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * The delay before retry {@code retry} (1 for the second attempt), or {@link #EXHAUSTED} when
     * {@code retry + 1} would exceed {@code retry.max-attempts}.
     */
    public long delayBeforeRetry(int retry, long hintMillis) {
        if (retry < 1) {
            throw new IllegalArgumentException("retries count from 1: " + retry);
        }
        if (retry >= maxAttempts) {
            return EXHAUSTED;
        }
        int shift = Math.min(retry - 1, 40);
        long backoff =
                initialBackoffMillis > (maxBackoffMillis >> shift)
                        ? maxBackoffMillis
                        : initialBackoffMillis << shift;
        return Math.min(maxBackoffMillis, Math.max(backoff, hintMillis));
    }

    /** The retry state of one command whose first attempt is being made now. */
    public Backoff newBackoff() {
        return new Backoff(this);
    }

    @Override
    public String toString() {
        return "RetryPolicy{backoffMs="
                + initialBackoffMillis
                + ".."
                + maxBackoffMillis
                + ", maxAttempts="
                + maxAttempts
                + '}';
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RetryPolicy)) {
            return false;
        }
        RetryPolicy p = (RetryPolicy) o;
        return initialBackoffMillis == p.initialBackoffMillis
                && maxBackoffMillis == p.maxBackoffMillis
                && maxAttempts == p.maxAttempts;
    }

    @Override
    public int hashCode() {
        return (Long.hashCode(initialBackoffMillis) * 31 + Long.hashCode(maxBackoffMillis)) * 31
                + maxAttempts;
    }

    /**
     * The retry state of one command: how many attempts were made and the last delay.
     *
     * <p>Threading: not thread-safe; owned by the thread (or loop) that retries the command.
     */
    public static final class Backoff {
        private final RetryPolicy policy;
        private int attempts = 1;

        private Backoff(RetryPolicy policy) {
            this.policy = policy;
        }

        /**
         * The delay before the next attempt, after the current one failed; counts that next
         * attempt. {@link #EXHAUSTED} (and nothing counted) when {@code retry.max-attempts}
         * attempts were made already.
         *
         * @param hintMillis the receiver's {@code retryAfterMillis}, or 0 for none
         */
        public long next(long hintMillis) {
            long d = policy.delayBeforeRetry(attempts, hintMillis);
            if (d != EXHAUSTED) {
                attempts++;
            }
            return d;
        }

        /** Attempts made or started so far, the first included. */
        public int attempts() {
            return attempts;
        }

        public boolean exhausted() {
            return attempts >= policy.maxAttempts;
        }
    }
}
