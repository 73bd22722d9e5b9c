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

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * An executor whose tasks wait until the model run steps them, so schedules are deterministic.
 *
 * <p>Threading: confined to the run's thread. Tasks run only when the run says so, in submission
 * order, on the run's thread — the coordinator loop's drains become explicit steps.
 */
public final class ManualExecutor implements Executor {
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    @Override
    public void execute(Runnable command) {
        tasks.addLast(command);
    }

    public int pending() {
        return tasks.size();
    }

    public boolean runOne() {
        Runnable r = tasks.pollFirst();
        if (r == null) {
            return false;
        }
        r.run();
        return true;
    }

    /** Runs until idle; a loop that never becomes idle is a bug, reported after a bound. */
    public int runAll() {
        int n = 0;
        while (runOne()) {
            if (++n > 1_000_000) {
                throw new IllegalStateException("executor never became idle");
            }
        }
        return n;
    }
}
