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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.util.Objects;
import org.apache.seatunnel.api.source.SourceSplit;

/**
 * What the wrapper source hands the engine as a split: either a connector split (kept as the
 * connector serializer's bytes so that engine threads never run connector code), or the reader's
 * runtime checkpoint metadata, which must travel inside the reader's checkpointed state because
 * Zeta returns reader state to the enumerator before readers open (docs/en/architecture.md hazard
 * 2).
 *
 * <p>Threading: immutable, any thread.
 */
public final class ManagedSplit implements SourceSplit {
    private static final long serialVersionUID = 1L;

    /** What the bytes are; wire codes fixed forever. */
    public enum Kind {
        CONNECTOR(1),
        RUNTIME_METADATA(2);

        private final int wireCode;

        Kind(int wireCode) {
            this.wireCode = wireCode;
        }

        public int wireCode() {
            return wireCode;
        }

        static Kind fromWireCode(int code) {
            for (Kind k : values()) {
                if (k.wireCode == code) {
                    return k;
                }
            }
            return null;
        }
    }

    private static final String METADATA_ID_PREFIX = "\u0000managed-runtime-metadata/";

    private final Kind kind;
    private final String splitId;
    private final byte[] bytes;

    ManagedSplit(Kind kind, String splitId, byte[] bytes) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.splitId = Objects.requireNonNull(splitId, "splitId");
        this.bytes = Objects.requireNonNull(bytes, "bytes");
    }

    public static ManagedSplit connector(String splitId, byte[] connectorBytes) {
        return new ManagedSplit(Kind.CONNECTOR, splitId, connectorBytes);
    }

    public static ManagedSplit metadata(int subtask, byte[] metadataBytes) {
        return new ManagedSplit(Kind.RUNTIME_METADATA, METADATA_ID_PREFIX + subtask, metadataBytes);
    }

    public Kind kind() {
        return kind;
    }

    @Override
    public String splitId() {
        return splitId;
    }

    /**
     * The reader subtask that checkpointed this runtime metadata (its id names it), or {@code
     * fallback} for a connector split or an id that does not.
     */
    int metadataSubtask(int fallback) {
        if (kind != Kind.RUNTIME_METADATA || !splitId.startsWith(METADATA_ID_PREFIX)) {
            return fallback;
        }
        try {
            return Integer.parseInt(splitId.substring(METADATA_ID_PREFIX.length()));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** The owned bytes; callers must not modify them. */
    byte[] bytes() {
        return bytes;
    }

    /**
     * A copy of the bytes: the connector serializer's bytes, or the encoded {@code
     * SourceRuntimeCheckpointMetadata}. For tools that inspect a stored checkpoint.
     */
    public byte[] copyBytes() {
        return bytes.clone();
    }

    @Override
    public String toString() {
        return "ManagedSplit{" + kind + ", bytes=" + bytes.length + '}';
    }
}
