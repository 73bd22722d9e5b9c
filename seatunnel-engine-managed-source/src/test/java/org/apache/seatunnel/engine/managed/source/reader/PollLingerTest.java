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

package org.apache.seatunnel.engine.managed.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.junit.jupiter.api.Test;

class PollLingerTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void theAdaptiveLingerIsEachReadersShareOfTheMembersWakeBudget() {
        AtomicInteger readers = new AtomicInteger(1);
        PollLinger linger = PollLinger.adaptive(readers::get, 1000, 100 * MS);
        assertEquals(MS, linger.nanos(), "one reader: 1 ms");
        readers.set(16);
        assertEquals(16 * MS, linger.nanos(), "read again at every linger: 16 readers, 16 ms");
        readers.set(64);
        assertEquals(64 * MS, linger.nanos());
        readers.set(0);
        assertEquals(0, linger.nanos(), "no reader registered (yet): no linger");
    }

    @Test
    void onlyATurnWithRowsStartsAnAdaptiveLingerAFixedOneFollowsEveryQuietTurn() {
        PollLinger adaptive = PollLinger.adaptive(() -> 16, 1000, 100 * MS);
        assertEquals(16 * MS, adaptive.nanos(true));
        assertEquals(0, adaptive.nanos(false), "an idle reader's empty re-poll: no linger");
        assertEquals(20 * MS, PollLinger.fixed(20 * MS).nanos(false));
        assertEquals(20 * MS, PollLinger.fixed(20 * MS).nanos(true));
    }

    @Test
    void anAdaptiveLingerIsWhatIsLeftOfItSinceTheLastWakeUpAFixedOneIsWhole() {
        PollLinger adaptive = PollLinger.adaptive(() -> 16, 1000, 100 * MS);
        assertEquals(16 * MS, adaptive.nanosAfter(true, 0));
        assertEquals(6 * MS, adaptive.nanosAfter(true, 10 * MS));
        assertEquals(0, adaptive.nanosAfter(true, 16 * MS));
        assertEquals(0, adaptive.nanosAfter(true, 500 * MS), "busy for longer: no linger");
        assertEquals(0, adaptive.nanosAfter(false, 0));
        assertEquals(16 * MS, adaptive.nanosAfter(true, -5), "a clock that stepped back");
        assertEquals(20 * MS, PollLinger.fixed(20 * MS).nanosAfter(true, 500 * MS));
    }

    @Test
    void theAdaptiveLingerStopsAtItsCap() {
        AtomicInteger readers = new AtomicInteger(100);
        PollLinger linger = PollLinger.adaptive(readers::get, 1000, 100 * MS);
        assertEquals(100 * MS, linger.nanos(), "at the cap");
        readers.set(101);
        assertEquals(100 * MS, linger.nanos(), "past the cap");
        readers.set(Integer.MAX_VALUE);
        assertEquals(100 * MS, linger.nanos(), "no overflow");
        assertEquals(
                5 * MS,
                PollLinger.adaptive(() -> 100_000, 1_000_000, 5 * MS).nanos(),
                "a smaller cap (reader.idle-wait) wins");
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PollLinger.fixed(-1));
        assertThrows(
                IllegalArgumentException.class, () -> PollLinger.adaptive(() -> 1, 0, 100 * MS));
        assertThrows(IllegalArgumentException.class, () -> PollLinger.adaptive(() -> 1, 10, -1));
    }

    @Test
    void aFixedLingerReplacesTheAdaptiveOneAndABudgetOfZeroTurnsItOff() {
        AtomicInteger readers = new AtomicInteger(64);
        assertEquals(
                100 * MS,
                config(Map.of()).pollLinger(readers::get).nanos(),
                "by default: adaptive, 250 wake-ups/s, capped at 100 ms");
        assertEquals(64 * MS, config(Map.of()).pollLinger(() -> 16).nanos(), "16 readers: 64 ms");
        assertEquals(
                20 * MS,
                config(Map.of("reader.poll-linger", "20ms")).pollLinger(readers::get).nanos());
        assertEquals(0, config(Map.of("reader.wake-budget", 0)).pollLinger(readers::get).nanos());
        assertEquals(
                50 * MS,
                config(Map.of("reader.idle-wait", "50ms")).pollLinger(readers::get).nanos(),
                "never past reader.idle-wait");
    }

    private static ManagedSourceConfig config(Map<String, Object> options) {
        Map<String, Object> raw = new HashMap<>(options);
        raw.put("enabled", true);
        return ManagedSourceConfig.fromMap(raw);
    }
}
