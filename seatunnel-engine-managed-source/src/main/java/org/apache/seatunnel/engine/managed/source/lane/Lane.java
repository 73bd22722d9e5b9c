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

package org.apache.seatunnel.engine.managed.source.lane;

/**
 * The runtime lane a Source runs in. Wire codes are persisted in checkpoints and are fixed forever.
 *
 * <p>Threading: immutable, any thread.
 */
public enum Lane {
    /** Engine-managed Source runtime (mailbox, command protocol, coordinator event loop). */
    A(1),
    /** The existing runtime; the default for connectors that have not opted in. */
    B(2);

    private final int wireCode;

    Lane(int wireCode) {
        this.wireCode = wireCode;
    }

    public int wireCode() {
        return wireCode;
    }

    /** The lane for a wire code, or null when unknown. */
    public static Lane fromWireCode(int code) {
        for (Lane lane : values()) {
            if (lane.wireCode == code) {
                return lane;
            }
        }
        return null;
    }
}
