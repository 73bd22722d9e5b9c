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

package org.apache.seatunnel.managed.testkit.conformance;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceEvent;

/**
 * Tells a reader that split {@code split} ends at {@code end} (a stop position the enumerator
 * learned); what it changes belongs in the split state. Immutable.
 */
record FixtureEvent(int split, long end) implements SourceEvent {

    /** Version 1: u8 1 | i32 split | i64 end. */
    static final class Codec implements Serializer<SourceEvent> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(SourceEvent e) throws IOException {
            if (!(e instanceof FixtureEvent)) {
                throw new IOException("not a fixture event: " + e);
            }
            FixtureEvent f = (FixtureEvent) e;
            return ByteBuffer.allocate(13).put((byte) 1).putInt(f.split).putLong(f.end).array();
        }

        @Override
        public SourceEvent deserialize(byte[] b) throws IOException {
            if (b.length != 13 || b[0] != 1) {
                throw new IOException("not a version 1 fixture event of 13 bytes");
            }
            ByteBuffer buf = ByteBuffer.wrap(b, 1, 12);
            return new FixtureEvent(buf.getInt(), buf.getLong());
        }
    }
}
