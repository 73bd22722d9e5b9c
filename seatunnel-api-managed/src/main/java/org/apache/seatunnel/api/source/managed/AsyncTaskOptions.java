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

package org.apache.seatunnel.api.source.managed;

import java.time.Duration;
import java.util.Objects;
import org.apache.seatunnel.api.annotation.Experimental;

/**
 * Mandatory lifecycle properties of one asynchronous coordinator task. Immutable.
 *
 * <p>Every property has an explicit value: the builder starts from the documented defaults so that
 * a task is never unbounded by omission.
 */
@Experimental
public final class AsyncTaskOptions {

    /** What happens when a second submission of the same key arrives while one is in flight. */
    public enum OverlapPolicy {
        /** Keep at most one pending submission behind the running one; later ones merge into it. */
        COALESCE_ONE,
        /** Reject the new submission; its handler receives a rejection failure. */
        REJECT
    }

    /** What the coordinator does when the task fails or times out. */
    public enum FailurePolicy {
        /** Deliver the failure to the result handler; the enumerator decides. */
        DELIVER_TO_HANDLER,
        /** Fail the coordinator (and so the job's pipeline) with the failure. */
        FAIL_COORDINATOR
    }

    /** Which pool class runs the callable; bounds are per class. */
    public enum WorkerClass {
        /** Split or partition discovery and other metadata I/O. */
        DISCOVERY,
        /** CPU-bound planning. */
        COMPUTE
    }

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final Duration timeout;
    private final OverlapPolicy overlapPolicy;
    private final FailurePolicy failurePolicy;
    private final WorkerClass workerClass;
    private final boolean cancelOnClose;

    private AsyncTaskOptions(Builder b) {
        this.timeout = b.timeout;
        this.overlapPolicy = b.overlapPolicy;
        this.failurePolicy = b.failurePolicy;
        this.workerClass = b.workerClass;
        this.cancelOnClose = b.cancelOnClose;
    }

    public static AsyncTaskOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Duration timeout() {
        return timeout;
    }

    public OverlapPolicy overlapPolicy() {
        return overlapPolicy;
    }

    public FailurePolicy failurePolicy() {
        return failurePolicy;
    }

    public WorkerClass workerClass() {
        return workerClass;
    }

    /** Whether closing the coordinator (or a failover) interrupts a running callable. */
    public boolean cancelOnClose() {
        return cancelOnClose;
    }

    @Override
    public String toString() {
        return "AsyncTaskOptions{timeout="
                + timeout
                + ", overlap="
                + overlapPolicy
                + ", failure="
                + failurePolicy
                + ", worker="
                + workerClass
                + ", cancelOnClose="
                + cancelOnClose
                + '}';
    }

    /** Builder with the documented defaults. */
    public static final class Builder {
        private Duration timeout = DEFAULT_TIMEOUT;
        private OverlapPolicy overlapPolicy = OverlapPolicy.COALESCE_ONE;
        private FailurePolicy failurePolicy = FailurePolicy.DELIVER_TO_HANDLER;
        private WorkerClass workerClass = WorkerClass.DISCOVERY;
        private boolean cancelOnClose = true;

        private Builder() {}

        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive: " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        public Builder overlapPolicy(OverlapPolicy policy) {
            this.overlapPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        public Builder failurePolicy(FailurePolicy policy) {
            this.failurePolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        public Builder workerClass(WorkerClass workerClass) {
            this.workerClass = Objects.requireNonNull(workerClass, "workerClass");
            return this;
        }

        public Builder cancelOnClose(boolean cancelOnClose) {
            this.cancelOnClose = cancelOnClose;
            return this;
        }

        public AsyncTaskOptions build() {
            return new AsyncTaskOptions(this);
        }
    }
}
