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

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.concurrent.OwnerThread;

/**
 * The one thread a {@link CommandSender} runs on, with its timers: a single-thread scheduled
 * executor in an engine binding, a manual one stepped by the fault-injection world.
 *
 * <p>Threading: {@link #execute} and {@link #schedule} may be called from any thread; every task
 * runs on the scheduler's single thread, one at a time, in submission order for {@link #execute}.
 * Both throw {@link RejectedExecutionException} once the scheduler stopped taking tasks.
 */
public interface SenderScheduler extends Executor {

    /** Runs {@code task} on the sender thread after {@code delayMillis}. */
    Cancellable schedule(Runnable task, long delayMillis);

    /**
     * Fails unless called from a task of this scheduler: the owner-thread assertion of the types
     * confined to the sender thread. A manual scheduler, whose tasks run on whichever thread steps
     * it, checks nothing.
     *
     * @param what the operation, for the error text
     * @throws IllegalStateException off the sender thread
     */
    default void checkSenderThread(String what) {}

    /** The scheduler of a single-thread {@link ScheduledExecutorService} owned by the caller. */
    static SenderScheduler of(ScheduledExecutorService executor) {
        Objects.requireNonNull(executor, "executor");
        // Bound at the start of every task, so a pool that replaces its thread stays checked.
        OwnerThread owner = new OwnerThread("command sender thread");
        return new SenderScheduler() {
            @Override
            public void execute(Runnable task) {
                executor.execute(owned(task));
            }

            private Runnable owned(Runnable task) {
                Objects.requireNonNull(task, "task");
                return () -> {
                    owner.bind();
                    task.run();
                };
            }

            @Override
            public void checkSenderThread(String what) {
                owner.check(what);
            }

            @Override
            public Cancellable schedule(Runnable task, long delayMillis) {
                ScheduledFuture<?> f =
                        executor.schedule(owned(task), delayMillis, TimeUnit.MILLISECONDS);
                return new Cancellable() {
                    @Override
                    public boolean cancel() {
                        return f.cancel(false);
                    }

                    @Override
                    public boolean isCancelled() {
                        return f.isCancelled();
                    }
                };
            }
        };
    }
}
