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

package org.apache.seatunnel.api.source.managed.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.seatunnel.api.source.managed.AsyncTaskOptions.OverlapPolicy;
import org.apache.seatunnel.api.source.managed.Cancellable;
import org.apache.seatunnel.api.source.managed.internal.KeyedCallSlots.Admission;
import org.junit.jupiter.api.Test;

class KeyedCallSlotsTest {

    private static final class Call implements Cancellable {
        boolean cancelled;

        @Override
        public boolean cancel() {
            if (cancelled) {
                return false;
            }
            cancelled = true;
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }
    }

    @Test
    void oneCallPerKeyIsActiveAndANewerWaiterReplacesTheOlderOne() {
        KeyedCallSlots<String, Call> slots = new KeyedCallSlots<>();
        Call first = new Call();
        Call second = new Call();
        Call third = new Call();
        assertEquals(Admission.START, slots.admit("k", first, OverlapPolicy.COALESCE_ONE));
        assertEquals(Admission.START, slots.admit("other", new Call(), OverlapPolicy.REJECT));
        assertEquals(Admission.WAITING, slots.admit("k", second, OverlapPolicy.COALESCE_ONE));
        assertEquals(Admission.REPLACED, slots.admit("k", third, OverlapPolicy.COALESCE_ONE));
        assertTrue(second.isCancelled(), "the replaced waiter is cancelled");
        assertFalse(third.isCancelled());

        assertSame(third, slots.release("k", first), "the waiter starts when the key frees");
        assertTrue(slots.isActive("k"));
        assertNull(slots.release("k", first), "a stale release frees nothing");
        assertNull(slots.release("k", third), "nothing waits behind the last call");
        assertFalse(slots.isActive("k"));
    }

    @Test
    void rejectRefusesAnActiveKeyAndACancelledWaiterNeverStarts() {
        KeyedCallSlots<String, Call> slots = new KeyedCallSlots<>();
        Call first = new Call();
        Call waiter = new Call();
        slots.admit("k", first, OverlapPolicy.REJECT);
        assertEquals(Admission.REJECTED, slots.admit("k", new Call(), OverlapPolicy.REJECT));
        slots.admit("k", waiter, OverlapPolicy.COALESCE_ONE);
        waiter.cancel();
        assertNull(slots.release("k", first));
        assertFalse(slots.isActive("k"));
    }

    @Test
    void clearingHandsBackWhatIsLeftForCancelling() {
        KeyedCallSlots<String, Call> slots = new KeyedCallSlots<>();
        Call active = new Call();
        Call waiter = new Call();
        slots.admit("k", active, OverlapPolicy.COALESCE_ONE);
        slots.admit("k", waiter, OverlapPolicy.COALESCE_ONE);
        assertEquals(2, slots.clearAndTakeAll().size());
        assertFalse(slots.isActive("k"));
        slots.admit("k", active, OverlapPolicy.COALESCE_ONE);
        slots.admit("k", waiter, OverlapPolicy.COALESCE_ONE);
        assertEquals(java.util.List.of(waiter), slots.clearAndTakeWaiting());
        assertNull(slots.release("k", active), "a cleared key starts nothing");
    }
}
