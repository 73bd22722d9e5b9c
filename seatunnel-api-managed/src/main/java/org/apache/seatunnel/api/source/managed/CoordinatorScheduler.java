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

/**
 * Threading: call only from the coordinator event loop (that is, from an enumerator callback).
 * Callables run on the member's shared bounded worker pool with the enumerator's context
 * classloader, which is restored afterwards; they must take immutable input and must not touch
 * enumerator state. Result handlers and scheduled tasks always run on the coordinator event loop,
 * and are dropped (and counted) when the coordinator epoch that scheduled them is no longer
 * current.
 *
 * <p>The only way a managed enumerator runs slow or periodic work (STIP-31 "Coordinator event loop
 * and scheduler"). There is deliberately no synchronous call.
 */
@Experimental
public interface CoordinatorScheduler {

    /**
     * Runs {@code callable} on the worker pool and hands its result or failure to {@code
     * resultHandler} on the coordinator loop.
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
}
