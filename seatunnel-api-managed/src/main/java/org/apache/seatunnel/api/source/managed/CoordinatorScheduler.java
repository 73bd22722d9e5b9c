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
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.seatunnel.api.annotation.Experimental;

/**
 * The only way a managed enumerator runs slow or delayed work (STIP-31 "Coordinator event loop and
 * scheduler"); an enumerator gets one from {@link ManagedEnumeratorContext#scheduler()}. There is
 * deliberately no synchronous call.
 *
 * <p>Threading, Lane A: call only from the coordinator event loop (that is, from an enumerator
 * callback or a result handler). Callables run on the member's shared bounded worker pool with the
 * enumerator's context classloader, which is restored afterwards; they must take immutable input
 * and must not touch enumerator state. Result handlers and scheduled tasks always run on the
 * coordinator event loop, and are dropped (and counted) when the coordinator epoch that scheduled
 * them is no longer current.
 *
 * <p>Threading, Lane B (stock engine): callable from any thread. Callables, result handlers and
 * scheduled tasks all run on the context's one scheduler thread, one at a time, never on an engine
 * thread: the enumerator synchronises against its engine callbacks as it does today. A callable
 * that outlives its timeout cannot be interrupted by a second thread; its handler then receives a
 * {@link java.util.concurrent.TimeoutException} instead of the result. There is no coordinator to
 * fail: {@code FAIL_COORDINATOR} failures go to the handler as well and are logged, and a task or
 * handler that throws is logged (a repeating schedule whose task throws is cancelled).
 *
 * <p>Keys, on both lanes: at most one schedule per key is pending; scheduling a key whose schedule
 * is pending coalesces into it (the new task replaces the old one, the next run time stays), and
 * using a key of a pending schedule of the other kind (one-shot or repeating) throws {@link
 * IllegalStateException}. Asynchronous calls have their own keys, governed by {@link
 * AsyncTaskOptions.OverlapPolicy}.
 */
@Experimental
public interface CoordinatorScheduler {

    /**
     * Runs {@code callable} on the worker pool and hands its result or failure to {@code
     * resultHandler} on the coordinator loop.
     *
     * <p>Bounded, never queued without limit. On Lane A a coordinator runs at most {@code
     * coordinator.async-max-concurrency} tasks at a time with at most {@code
     * coordinator.async-queue-capacity} more waiting, and each {@link AsyncTaskOptions.WorkerClass}
     * has a member-wide bounded queue ({@code async-worker.*}). A submission beyond a bound, or one
     * with {@link AsyncTaskOptions.OverlapPolicy#REJECT} while its key is active, is not run:
     * {@code resultHandler} receives a {@link java.util.concurrent.RejectedExecutionException} (on
     * the loop, like any result) whose message names the bound, unless the options' failure policy
     * fails the coordinator instead.
     */
    <T> Cancellable callAsync(
            AsyncTaskKey key,
            Callable<T> callable,
            BiConsumer<T, Throwable> resultHandler,
            AsyncTaskOptions options);

    /**
     * Runs {@code task} on the coordinator loop after {@code delay}, then again {@code delay} after
     * each run returns (fixed delay, no re-entry), until cancelled. Scheduling the same key again
     * while one is pending coalesces into the pending one.
     */
    Cancellable scheduleInCoordinatorThread(AsyncTaskKey key, Duration delay, Runnable task);

    /**
     * Runs {@code task} once on the coordinator loop after {@code delay}, unless cancelled first.
     * The key is free again as soon as the task starts, so the task may schedule its own key anew.
     * {@link Cancellable#cancel()} returns false once the task has started.
     */
    Cancellable scheduleOnceInCoordinatorThread(AsyncTaskKey key, Duration delay, Runnable task);
}
