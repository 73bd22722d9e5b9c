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

package org.apache.seatunnel.engine.managed.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.seatunnel.api.sink.SinkWriter;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.junit.jupiter.api.Test;

/** The counting sink's id check, which the split-storm runner's exactly-once verdict rests on. */
class CountingSinkTest {

    private static void write(String runId, Object... ids) throws Exception {
        SinkWriter<SeaTunnelRow, Void, Void> w = new CountingSink(runId, true).createWriter(null);
        for (Object id : ids) {
            w.write(new SeaTunnelRow(new Object[] {id, 0, 0L, "p"}));
        }
    }

    @Test
    void idsZeroToNMinusOneOnceEachAreExactlyOnce() throws Exception {
        write("ids-ok", 2L, 0L, 1L);
        write("ids-ok", 3L);
        assertEquals(4, CountingSink.count("ids-ok"));
        assertTrue(CountingSink.idsExactlyOnce("ids-ok", 4));
        CountingSink.clearIds("ids-ok");
        assertFalse(CountingSink.idsExactlyOnce("ids-ok", 4), "forgotten ids prove nothing");
    }

    @Test
    void aDuplicateBesideALossIsCaughtAlthoughTheCountMatches() throws Exception {
        write("ids-dup", 0L, 1L, 1L);
        assertEquals(3, CountingSink.count("ids-dup"));
        assertFalse(CountingSink.idsExactlyOnce("ids-dup", 3));
    }

    @Test
    void anIdOutsideTheRangeOrNotAnIdIsCaught() throws Exception {
        write("ids-range", 0L, 5L);
        assertFalse(CountingSink.idsExactlyOnce("ids-range", 2));
        write("ids-bad", 0L, "1");
        assertFalse(CountingSink.idsExactlyOnce("ids-bad", 2));
    }

    @Test
    void aRunThatDidNotTrackIdsProvesNothing() throws Exception {
        new CountingSink("ids-none", false)
                .createWriter(null)
                .write(new SeaTunnelRow(new Object[] {0L, 0, 0L, "p"}));
        assertFalse(CountingSink.idsExactlyOnce("ids-none", 1));
    }
}
