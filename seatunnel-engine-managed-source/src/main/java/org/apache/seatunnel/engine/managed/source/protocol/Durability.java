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

package org.apache.seatunnel.engine.managed.source.protocol;

/** The four durability classes of STIP-31; the wire code is fixed forever. */
public enum Durability {
    /** Split assignments and explicitly versioned state events: lost only with the checkpoint. */
    CHECKPOINT_COUPLED(1),
    /** Registration, split request, no-more-splits: rebuilt by reconciliation after failover. */
    RECONSTRUCTABLE(2),
    /** Availability and diagnostics: may be dropped or coalesced. */
    EPHEMERAL(3),
    /** Cancellation and fatal failure: independent capacity, preempts everything. */
    TERMINAL(4);

    private final int wireCode;

    Durability(int wireCode) {
        this.wireCode = wireCode;
    }

    public int wireCode() {
        return wireCode;
    }

    /** The durability for a wire code, or null when unknown. */
    public static Durability fromWireCode(int code) {
        for (Durability d : values()) {
            if (d.wireCode == code) {
                return d;
            }
        }
        return null;
    }
}
