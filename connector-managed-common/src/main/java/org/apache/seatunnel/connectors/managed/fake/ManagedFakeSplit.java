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

package org.apache.seatunnel.connectors.managed.fake;

import org.apache.seatunnel.api.source.SourceSplit;

/**
 * One split of the managed FakeSource: a stable id {@code "fake-<n>"} and the next sequence number
 * to read. Immutable: a reader keeps its own cursor and hands out copies in {@code snapshotState},
 * so a snapshot can never be changed by a later poll.
 */
public final class ManagedFakeSplit implements SourceSplit {

    private static final long serialVersionUID = 1L;

    private static final String ID_PREFIX = "fake-";

    private final int splitNumber;
    private final long offset;
    // The id, built on first use: both lanes ask for it several times per split (assignment,
    // the reader's split map, the fetcher, each row). A race builds equal strings; a String is
    // safely published through a data race.
    private transient String id;

    public ManagedFakeSplit(int splitNumber, long offset) {
        if (splitNumber < 0) {
            throw new IllegalArgumentException("split number must be >= 0: " + splitNumber);
        }
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0: " + offset);
        }
        this.splitNumber = splitNumber;
        this.offset = offset;
    }

    public static String splitId(int splitNumber) {
        return ID_PREFIX + splitNumber;
    }

    @Override
    public String splitId() {
        String s = id;
        if (s == null) {
            s = splitId(splitNumber);
            id = s;
        }
        return s;
    }

    public int splitNumber() {
        return splitNumber;
    }

    /** The next sequence number to emit; every row with a smaller seq has been emitted. */
    public long offset() {
        return offset;
    }

    public ManagedFakeSplit withOffset(long newOffset) {
        return new ManagedFakeSplit(splitNumber, newOffset);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ManagedFakeSplit)) {
            return false;
        }
        ManagedFakeSplit s = (ManagedFakeSplit) o;
        return splitNumber == s.splitNumber && offset == s.offset;
    }

    @Override
    public int hashCode() {
        return 31 * splitNumber + Long.hashCode(offset);
    }

    @Override
    public String toString() {
        return splitId() + "@" + offset;
    }
}
