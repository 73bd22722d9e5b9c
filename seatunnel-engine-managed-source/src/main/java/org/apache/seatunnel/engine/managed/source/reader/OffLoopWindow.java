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

import java.util.List;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * The loop's side of {@code reader.off-loop-check} ({@link OffLoopStateCheck}): whether a window of
 * a sample is open (from a sampled barrier, or a call's return, to the next call into the reader),
 * and the bracket around each call into the reader. With the check off, {@link #beforeCall} reads
 * one field that stays false.
 *
 * <p>Threading: the loop's driving thread only, like the loop's other state.
 */
final class OffLoopWindow<SplitT extends SourceSplit> {
    // Null while the check is off.
    private OffLoopStateCheck<SplitT> check;
    private boolean pending;

    /** Turns the check on with {@code c}, or off (null). */
    void set(OffLoopStateCheck<SplitT> c) {
        this.check = c;
        this.pending = false;
    }

    /**
     * Before a call into the reader: closes an open window; true if the state was unchanged and the
     * sample watches the window after the call ({@link #afterCall}).
     */
    boolean beforeCall() {
        if (!pending) {
            return false;
        }
        pending = false;
        return check.unchangedBeforeCall();
    }

    /** After a call {@link #beforeCall} said to watch: opens the next window, if any. */
    void afterCall() {
        pending = check.rearm();
    }

    /** A barrier was taken with {@code state}: it may be sampled. */
    void atBarrier(long checkpointId, List<SplitT> state) {
        if (check != null) {
            pending = check.atBarrier(checkpointId, state, pending);
        }
    }

    /** The attempt ends: nothing is compared any more. */
    void forget() {
        pending = false;
        if (check != null) {
            check.forget();
        }
    }
}
