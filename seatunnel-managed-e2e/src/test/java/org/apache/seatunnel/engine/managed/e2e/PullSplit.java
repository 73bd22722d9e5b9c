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

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;

/** A numbered range of rows {@code [next, end)} of the pull-model connector. Immutable. */
final class PullSplit implements SourceSplit {
    private static final long serialVersionUID = 1L;

    final int number;
    final long next;
    final long end;

    PullSplit(int number, long next, long end) {
        this.number = number;
        this.next = next;
        this.end = end;
    }

    @Override
    public String splitId() {
        return "pull-" + number;
    }

    /** Version 1: i32 number | i64 next | i64 end. */
    static final class Serializer extends VersionedSerializer<PullSplit> {
        private static final long serialVersionUID = 1L;

        @Override
        protected int version() {
            return 1;
        }

        @Override
        protected void write(DataOutputStream out, PullSplit s) throws IOException {
            out.writeInt(s.number);
            out.writeLong(s.next);
            out.writeLong(s.end);
        }

        @Override
        protected PullSplit read(DataInputStream in, int version) throws IOException {
            return new PullSplit(in.readInt(), in.readLong(), in.readLong());
        }
    }
}
