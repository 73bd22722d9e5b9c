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

package org.apache.seatunnel.engine.managed.source.coordinator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;

/**
 * The connector's splits as the tracker keeps them: serialized once when the enumerator assigns
 * them, checked to fit one assignment command, and deserialized when tracked entries go back to the
 * enumerator.
 *
 * <p>Threading: stateless apart from the connector's serializer; used on the coordinator loop.
 */
final class SplitBytes<SplitT> {
    private final Serializer<SplitT> serializer;
    private final int maxPayloadBytes;

    SplitBytes(Serializer<SplitT> serializer, int maxPayloadBytes) {
        this.serializer = serializer;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    /**
     * The serialized split.
     *
     * @throws IllegalStateException if it does not fit one command ({@code
     *     command.max-payload-bytes})
     */
    byte[] encode(SplitT split) {
        byte[] bytes;
        try {
            bytes = serializer.serialize(split);
        } catch (IOException e) {
            throw new UncheckedIOException("split serializer failed", e);
        }
        if (AssignmentPayload.encodedSize(1, bytes.length) > maxPayloadBytes) {
            throw new IllegalStateException(
                    "a split of "
                            + bytes.length
                            + " serialized bytes does not fit one command"
                            + " (command.max-payload-bytes "
                            + maxPayloadBytes
                            + ")");
        }
        return bytes;
    }

    /**
     * The splits of {@code entries} by the subtask that should own them under {@code parallelism}
     * (after a rescale down the old index may not exist: ownership is by split id, the subtask is
     * only the enumerator's hint).
     */
    Map<Integer, List<SplitT>> bySubtask(List<AssignmentEntry> entries, int parallelism) {
        Map<Integer, List<SplitT>> out = new TreeMap<>();
        for (AssignmentEntry e : entries) {
            int s = e.targetSubtask() % parallelism;
            try {
                out.computeIfAbsent(s, k -> new ArrayList<>())
                        .add(serializer.deserialize(e.splitBytes()));
            } catch (IOException ex) {
                throw new UncheckedIOException("split deserializer failed", ex);
            }
        }
        return out;
    }
}
