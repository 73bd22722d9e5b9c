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

package org.apache.seatunnel.engine.managed.source.zeta.transport;

import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceOptions;

/**
 * Threading: immutable; any thread.
 *
 * <p>The member-wide settings that {@link ManagedSourceMemberService} reads once, when Hazelcast
 * creates it at node start. Immutable; validated on construction so a bad value names its option.
 *
 * <p>Why a static holder: Hazelcast instantiates the service through {@code
 * ServiceDescriptorProvider} with a no-argument constructor, before any job or host exists, so the
 * values must be in place before the member starts ({@link ManagedSourceMemberService#configure}).
 */
public final class ManagedSourceRuntimeSettings {
    private static final long DEFAULT_CLOSE_TIMEOUT_MILLIS =
            ManagedSourceOptions.COORDINATOR_CLOSE_TIMEOUT.defaultValue().toMillis();

    private static final ManagedSourceRuntimeSettings DEFAULTS =
            new ManagedSourceRuntimeSettings(256L << 20, 512 << 10, 10, 1000, 4096, 2, 1024);

    private final long workerMailboxBytes;
    private final int maxPayloadBytes;
    private final long retryInitialBackoffMillis;
    private final long retryMaxBackoffMillis;
    private final int maxQueuedPerTarget;
    private final int coordinatorThreads;
    private final int coordinatorQueueCapacity;
    private final long closeTimeoutMillis;

    /**
     * @param workerMailboxBytes {@code worker.mailbox-max-bytes}: payload bytes shared by every
     *     reader mailbox of the member
     * @param maxPayloadBytes {@code command.max-payload-bytes}: larger frames are refused before
     *     their checksum is computed
     * @param retryInitialBackoffMillis {@code retry.initial-backoff}, used when an ack gives no
     *     hint
     * @param retryMaxBackoffMillis {@code retry.max-backoff}
     * @param maxQueuedPerTarget envelopes that may wait behind the one in flight, per target
     * @param coordinatorThreads threads of the shared coordinator-loop executor
     * @param coordinatorQueueCapacity tasks that may wait for a coordinator-loop thread
     */
    public ManagedSourceRuntimeSettings(
            long workerMailboxBytes,
            int maxPayloadBytes,
            long retryInitialBackoffMillis,
            long retryMaxBackoffMillis,
            int maxQueuedPerTarget,
            int coordinatorThreads,
            int coordinatorQueueCapacity) {
        this(
                workerMailboxBytes,
                maxPayloadBytes,
                retryInitialBackoffMillis,
                retryMaxBackoffMillis,
                maxQueuedPerTarget,
                coordinatorThreads,
                coordinatorQueueCapacity,
                DEFAULT_CLOSE_TIMEOUT_MILLIS);
    }

    private ManagedSourceRuntimeSettings(
            long workerMailboxBytes,
            int maxPayloadBytes,
            long retryInitialBackoffMillis,
            long retryMaxBackoffMillis,
            int maxQueuedPerTarget,
            int coordinatorThreads,
            int coordinatorQueueCapacity,
            long closeTimeoutMillis) {
        positive(ManagedSourceOptions.WORKER_MAILBOX_MAX_BYTES.key(), workerMailboxBytes);
        positive(ManagedSourceOptions.COORDINATOR_CLOSE_TIMEOUT.key(), closeTimeoutMillis);
        positive(ManagedSourceOptions.MAX_COMMAND_PAYLOAD_BYTES.key(), maxPayloadBytes);
        positive(ManagedSourceOptions.RETRY_INITIAL_BACKOFF.key(), retryInitialBackoffMillis);
        positive(ManagedSourceOptions.RETRY_MAX_BACKOFF.key(), retryMaxBackoffMillis);
        positive("transport max queued per target", maxQueuedPerTarget);
        positive("coordinator threads", coordinatorThreads);
        positive("coordinator queue capacity", coordinatorQueueCapacity);
        if (retryMaxBackoffMillis < retryInitialBackoffMillis) {
            throw new IllegalArgumentException(
                    ManagedSourceOptions.RETRY_MAX_BACKOFF.key()
                            + " ("
                            + retryMaxBackoffMillis
                            + " ms) must not be below "
                            + ManagedSourceOptions.RETRY_INITIAL_BACKOFF.key()
                            + " ("
                            + retryInitialBackoffMillis
                            + " ms)");
        }
        this.workerMailboxBytes = workerMailboxBytes;
        this.maxPayloadBytes = maxPayloadBytes;
        this.retryInitialBackoffMillis = retryInitialBackoffMillis;
        this.retryMaxBackoffMillis = retryMaxBackoffMillis;
        this.maxQueuedPerTarget = maxQueuedPerTarget;
        this.coordinatorThreads = coordinatorThreads;
        this.coordinatorQueueCapacity = coordinatorQueueCapacity;
        this.closeTimeoutMillis = closeTimeoutMillis;
    }

    /** STIP-31's defaults: 256 MiB worker budget, 512 KiB payloads, backoff 10 ms to 1 s. */
    public static ManagedSourceRuntimeSettings defaults() {
        return DEFAULTS;
    }

    /**
     * The transport-related options of a validated managed-source section (ranges checked at load);
     * the rest are defaults.
     */
    public static ManagedSourceRuntimeSettings of(ManagedSourceConfig config) {
        return DEFAULTS.withWorkerMailboxBytes(config.workerMailboxBytes())
                .withMaxPayloadBytes(config.maxPayloadBytes())
                .withRetry(
                        config.retryInitialMillis(),
                        config.retryMaxMillis(),
                        DEFAULTS.maxQueuedPerTarget)
                .withCloseTimeoutMillis(config.closeTimeoutNanos() / 1_000_000L);
    }

    /** A copy with another worker budget; tests use it to make overload reachable. */
    public ManagedSourceRuntimeSettings withWorkerMailboxBytes(long bytes) {
        return new ManagedSourceRuntimeSettings(
                bytes,
                maxPayloadBytes,
                retryInitialBackoffMillis,
                retryMaxBackoffMillis,
                maxQueuedPerTarget,
                coordinatorThreads,
                coordinatorQueueCapacity,
                closeTimeoutMillis);
    }

    /** A copy with another {@code coordinator.close-timeout}. */
    public ManagedSourceRuntimeSettings withCloseTimeoutMillis(long millis) {
        return new ManagedSourceRuntimeSettings(
                workerMailboxBytes,
                maxPayloadBytes,
                retryInitialBackoffMillis,
                retryMaxBackoffMillis,
                maxQueuedPerTarget,
                coordinatorThreads,
                coordinatorQueueCapacity,
                millis);
    }

    /** A copy with another {@code command.max-payload-bytes}. */
    public ManagedSourceRuntimeSettings withMaxPayloadBytes(int bytes) {
        return new ManagedSourceRuntimeSettings(
                workerMailboxBytes,
                bytes,
                retryInitialBackoffMillis,
                retryMaxBackoffMillis,
                maxQueuedPerTarget,
                coordinatorThreads,
                coordinatorQueueCapacity,
                closeTimeoutMillis);
    }

    /** A copy with other sender bounds. */
    public ManagedSourceRuntimeSettings withRetry(
            long initialBackoffMillis, long maxBackoffMillis, int maxQueuedPerTarget) {
        return new ManagedSourceRuntimeSettings(
                workerMailboxBytes,
                maxPayloadBytes,
                initialBackoffMillis,
                maxBackoffMillis,
                maxQueuedPerTarget,
                coordinatorThreads,
                coordinatorQueueCapacity,
                closeTimeoutMillis);
    }

    private static void positive(String key, long v) {
        if (v <= 0) {
            throw new IllegalArgumentException(key + " must be positive, was " + v);
        }
    }

    public long workerMailboxBytes() {
        return workerMailboxBytes;
    }

    public int maxPayloadBytes() {
        return maxPayloadBytes;
    }

    public long retryInitialBackoffMillis() {
        return retryInitialBackoffMillis;
    }

    public long retryMaxBackoffMillis() {
        return retryMaxBackoffMillis;
    }

    public int maxQueuedPerTarget() {
        return maxQueuedPerTarget;
    }

    public int coordinatorThreads() {
        return coordinatorThreads;
    }

    public int coordinatorQueueCapacity() {
        return coordinatorQueueCapacity;
    }

    /** {@code coordinator.close-timeout}: the longest wait for one coordinator's close. */
    public long closeTimeoutMillis() {
        return closeTimeoutMillis;
    }

    @Override
    public String toString() {
        return "ManagedSourceRuntimeSettings{workerMailboxBytes="
                + workerMailboxBytes
                + ", maxPayloadBytes="
                + maxPayloadBytes
                + ", retryBackoffMs="
                + retryInitialBackoffMillis
                + ".."
                + retryMaxBackoffMillis
                + ", maxQueuedPerTarget="
                + maxQueuedPerTarget
                + ", coordinatorThreads="
                + coordinatorThreads
                + ", coordinatorQueue="
                + coordinatorQueueCapacity
                + ", closeTimeoutMs="
                + closeTimeoutMillis
                + '}';
    }
}
