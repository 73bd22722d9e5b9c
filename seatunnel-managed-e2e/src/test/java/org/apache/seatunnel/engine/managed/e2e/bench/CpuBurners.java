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

package org.apache.seatunnel.engine.managed.e2e.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps every core busy while a scenario measures, so that the engine's threads compete for CPU as
 * they do on a loaded member ("both cores saturated"): one spinning daemon thread per available
 * processor, at normal priority.
 *
 * <p>Threading: {@link #start} and {@link #close} from the runner's thread.
 */
final class CpuBurners implements AutoCloseable {
    private volatile boolean running = true;
    private final List<Thread> threads = new ArrayList<>();
    // Written by the spinners so the JIT cannot drop their loops.
    private volatile long sink;

    static CpuBurners start() {
        CpuBurners b = new CpuBurners();
        int n = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(b::spin, "cpu-burner-" + i);
            t.setDaemon(true);
            b.threads.add(t);
            t.start();
        }
        return b;
    }

    private void spin() {
        long x = 0;
        while (running) {
            for (int i = 0; i < 10_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x;
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join(10_000);
        }
    }
}
