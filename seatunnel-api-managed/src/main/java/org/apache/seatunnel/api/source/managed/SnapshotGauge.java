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

import java.util.function.LongSupplier;
import org.apache.seatunnel.api.annotation.Experimental;
import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.api.common.metrics.ThreadSafeCounter;
import org.apache.seatunnel.api.common.metrics.Unit;

/**
 * A read-only metric registered as a {@link Counter} (SeaTunnel 2.3.8's metrics context has no
 * gauge) whose value is read from its source when scraped, and which leaves the JVM as SeaTunnel's
 * own {@link ThreadSafeCounter} holding the value at that moment.
 *
 * <p>Why the replacement: the engine ships each task's metrics to the master by Java serialization,
 * and the master's class loader cannot see a connector jar from {@code connectors/}; a connector's
 * own metric class would fail there, and the source it reads would not travel anyway.
 *
 * <p>Threading: {@link #getCount()} from any thread, as thread-safe as the supplier; the mutators
 * do nothing.
 */
@Experimental
public final class SnapshotGauge implements Counter {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final transient LongSupplier value;

    public SnapshotGauge(String name, LongSupplier value) {
        this.name = name;
        this.value = value;
    }

    private Object writeReplace() {
        ThreadSafeCounter snapshot = new ThreadSafeCounter(name);
        snapshot.set(getCount());
        return snapshot;
    }

    @Override
    public void inc() {}

    @Override
    public void inc(long n) {}

    @Override
    public void dec() {}

    @Override
    public void dec(long n) {}

    @Override
    public void set(long n) {}

    @Override
    public long getCount() {
        return value == null ? 0 : value.getAsLong();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Unit unit() {
        return Unit.COUNT;
    }
}
