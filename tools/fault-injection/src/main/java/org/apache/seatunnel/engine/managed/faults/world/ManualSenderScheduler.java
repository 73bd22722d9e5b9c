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

package org.apache.seatunnel.engine.managed.faults.world;

import java.time.Duration;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.engine.managed.source.transport.SenderScheduler;

/**
 * A member's sender thread in the model: its tasks wait until the run steps them, its timers fire
 * on the run's {@link ManualTime} and then queue their task like any other.
 *
 * <p>Threading: confined to the run's thread.
 */
final class ManualSenderScheduler implements SenderScheduler {
    private final ManualExecutor tasks = new ManualExecutor();
    private final ManualTime time;

    ManualSenderScheduler(ManualTime time) {
        this.time = time;
    }

    @Override
    public void execute(Runnable task) {
        tasks.execute(task);
    }

    @Override
    public Cancellable schedule(Runnable task, long delayMillis) {
        return time.schedule(Duration.ofMillis(delayMillis), () -> tasks.execute(task));
    }

    /** Runs one queued task; false if none was queued. */
    boolean runOne() {
        return tasks.runOne();
    }

    int pending() {
        return tasks.pending();
    }
}
