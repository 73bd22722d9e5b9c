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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.api.common.metrics.AbstractMetricsContext;
import org.apache.seatunnel.api.common.metrics.Counter;
import org.junit.jupiter.api.Test;

class SnapshotGaugesTest {
    /** A context like the engine's: SeaTunnel's base with nothing added. */
    private static final class Context extends AbstractMetricsContext {
        private static final long serialVersionUID = 1L;
    }

    /** What Zeta does between a task's attempts: the master's copy, by Java serialization. */
    private static Context shippedToTheMasterAndBack(Context c) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(c);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (Context) in.readObject();
        }
    }

    @Test
    void aFreshContextReportsTheSourceAsIs() {
        Context c = new Context();
        AtomicLong polled = new AtomicLong(7);
        SnapshotGauge g =
                SnapshotGauges.register(c, "Polled", SnapshotGauges.Kind.TOTAL, polled::get);
        assertSame(g, c.counter("Polled"));
        polled.set(9);
        assertEquals(9, c.counter("Polled").getCount());
    }

    @Test
    void aRestoredTotalContinuesFromTheValueTheMasterHeld() throws Exception {
        Context first = new Context();
        AtomicLong before = new AtomicLong();
        SnapshotGauges.register(first, "Polled", SnapshotGauges.Kind.TOTAL, before::get);
        before.set(1000);
        Context restored = shippedToTheMasterAndBack(first);
        // The copy holds a plain counter at 1000; the restored attempt counts from 0 again.
        AtomicLong after = new AtomicLong();
        SnapshotGauge g =
                SnapshotGauges.register(restored, "Polled", SnapshotGauges.Kind.TOTAL, after::get);
        assertSame(g, restored.counter("Polled"), "the restored attempt's gauge is reported");
        assertEquals(1000, restored.counter("Polled").getCount());
        after.set(250);
        assertEquals(1250, restored.counter("Polled").getCount());
        // And the next round trip carries on from there.
        Context again = shippedToTheMasterAndBack(restored);
        assertEquals(1250, again.counter("Polled").getCount());
    }

    @Test
    void aRestoredLevelReadsOnlyTheNewSource() throws Exception {
        Context first = new Context();
        AtomicLong queued = new AtomicLong(40);
        SnapshotGauges.register(first, "Queued", SnapshotGauges.Kind.LEVEL, queued::get);
        Context restored = shippedToTheMasterAndBack(first);
        AtomicLong queuedNow = new AtomicLong(3);
        SnapshotGauges.register(restored, "Queued", SnapshotGauges.Kind.LEVEL, queuedNow::get);
        Counter reported = restored.counter("Queued");
        assertEquals(3, reported.getCount());
        queuedNow.set(0);
        assertEquals(0, reported.getCount());
    }
}
