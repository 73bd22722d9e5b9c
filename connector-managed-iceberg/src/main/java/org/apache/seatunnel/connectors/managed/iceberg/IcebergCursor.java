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

package org.apache.seatunnel.connectors.managed.iceberg;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;

/**
 * Where the next snapshot discovery of {@link ManagedIcebergEnumerator} starts: whether the start
 * mode was resolved, the snapshot the job has planned through (every file appended up to it was
 * handed out or waits in the enumerator's state), and the {@link Range} being handed out in chunks,
 * with how many of its tasks are out. A restore resumes at exactly that snapshot and task: the
 * planning of a range is sorted, so re-planning it gives the same order.
 *
 * <p>Threading: immutable, read by the discovery on the worker pool.
 */
public final class IcebergCursor implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Nothing resolved yet: the first discovery applies the start mode. */
    public static final IcebergCursor INITIAL = new IcebergCursor(false, null, null);

    private final boolean started;
    private final Long position;
    private final Range range;

    IcebergCursor(boolean started, Long position, Range range) {
        this.started = started;
        this.position = position;
        this.range = range;
    }

    /** A resolved start: planned through {@code position} (null: before the table's history). */
    static IcebergCursor at(Long position) {
        return new IcebergCursor(true, position, null);
    }

    public boolean started() {
        return started;
    }

    /** The snapshot planned through; null before the first snapshot (or none resolved yet). */
    public Long position() {
        return position;
    }

    /** The range being handed out, or null. */
    public Range range() {
        return range;
    }

    IcebergCursor withRange(Range r) {
        return new IcebergCursor(true, position, r);
    }

    /** The range's tasks all handed out: planned through its end snapshot. */
    IcebergCursor rangeDone() {
        return new IcebergCursor(true, range.to, null);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof IcebergCursor)) {
            return false;
        }
        IcebergCursor c = (IcebergCursor) o;
        return started == c.started
                && Objects.equals(position, c.position)
                && Objects.equals(range, c.range);
    }

    @Override
    public int hashCode() {
        return Objects.hash(started, position, range);
    }

    @Override
    public String toString() {
        return "IcebergCursor{started="
                + started
                + ", position="
                + position
                + ", range="
                + range
                + '}';
    }

    /**
     * Files to hand out: a table scan at one snapshot, or the appends after {@code from}
     * (exclusive; null: from the oldest snapshot kept) up to {@code to} (inclusive); and how many
     * of its sorted tasks are out. Immutable.
     */
    public static final class Range implements Serializable {
        private static final long serialVersionUID = 1L;

        public enum Kind {
            TABLE_SCAN,
            APPENDS
        }

        final Kind kind;
        final Long from;
        final long to;
        final long handedOut;

        Range(Kind kind, Long from, long to, long handedOut) {
            this.kind = kind;
            this.from = kind == Kind.TABLE_SCAN ? null : from;
            this.to = to;
            this.handedOut = handedOut;
        }

        static Range tableScan(long snapshot) {
            return new Range(Kind.TABLE_SCAN, null, snapshot, 0);
        }

        static Range appends(Long from, long to) {
            return new Range(Kind.APPENDS, from, to, 0);
        }

        Range handedOut(long n) {
            return new Range(kind, from, to, n);
        }

        /** The planning this range stands for, without its progress. */
        String planKey() {
            return kind + ":" + from + ":" + to;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Range)) {
                return false;
            }
            Range r = (Range) o;
            return kind == r.kind
                    && Objects.equals(from, r.from)
                    && to == r.to
                    && handedOut == r.handedOut;
        }

        @Override
        public int hashCode() {
            return Objects.hash(kind, from, to, handedOut);
        }

        @Override
        public String toString() {
            return kind + "(" + from + ", " + to + "], handedOut=" + handedOut;
        }
    }

    /**
     * Version 1.
     *
     * <pre>{@code
     * u8 version=1 | u8 flags (bit 0: started, bit 1: position, bit 2: range)
     *   | [i64 position] | [u8 kind (0 table scan, 1 appends) | u8 hasFrom | [i64 from]
     *                       | i64 to | i64 handedOut]
     * }</pre>
     *
     * Stateless.
     */
    public static final class Serializer extends VersionedSerializer<IcebergCursor> {
        private static final long serialVersionUID = 1L;
        private static final int STARTED = 1;
        private static final int POSITION = 2;
        private static final int RANGE = 4;

        @Override
        protected int version() {
            return 1;
        }

        @Override
        protected void write(DataOutputStream out, IcebergCursor c) throws IOException {
            int flags =
                    (c.started ? STARTED : 0)
                            | (c.position != null ? POSITION : 0)
                            | (c.range != null ? RANGE : 0);
            out.writeByte(flags);
            if (c.position != null) {
                out.writeLong(c.position);
            }
            if (c.range != null) {
                Range r = c.range;
                out.writeByte(r.kind == Range.Kind.TABLE_SCAN ? 0 : 1);
                out.writeByte(r.from != null ? 1 : 0);
                if (r.from != null) {
                    out.writeLong(r.from);
                }
                out.writeLong(r.to);
                out.writeLong(r.handedOut);
            }
        }

        @Override
        protected IcebergCursor read(DataInputStream in, int version) throws IOException {
            int flags = in.readUnsignedByte();
            if ((flags & ~(STARTED | POSITION | RANGE)) != 0) {
                throw new IOException("Iceberg cursor: unknown flags " + flags);
            }
            Long position = (flags & POSITION) != 0 ? in.readLong() : null;
            Range range = null;
            if ((flags & RANGE) != 0) {
                int kind = in.readUnsignedByte();
                if (kind > 1) {
                    throw new IOException("Iceberg cursor: unknown range kind " + kind);
                }
                int hasFrom = in.readUnsignedByte();
                if (hasFrom > 1) {
                    throw new IOException("Iceberg cursor: bad flag " + hasFrom);
                }
                Long from = hasFrom == 1 ? in.readLong() : null;
                long to = in.readLong();
                long handedOut = in.readLong();
                if (handedOut < 0) {
                    throw new IOException("Iceberg cursor: negative progress " + handedOut);
                }
                range =
                        new Range(
                                kind == 0 ? Range.Kind.TABLE_SCAN : Range.Kind.APPENDS,
                                from,
                                to,
                                handedOut);
            }
            return new IcebergCursor((flags & STARTED) != 0, position, range);
        }
    }
}
