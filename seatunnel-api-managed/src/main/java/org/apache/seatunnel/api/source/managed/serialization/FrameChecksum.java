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

package org.apache.seatunnel.api.source.managed.serialization;

import java.util.zip.CRC32;
import org.apache.seatunnel.api.annotation.Experimental;

/** The checksum a frame ends with (or a block carries); each format keeps the one it has. */
@Experimental
public enum FrameChecksum {
    /** CRC-32 (ISO-HDLC, {@link java.util.zip.CRC32}). */
    CRC32("CRC-32"),
    /** CRC-32C (Castagnoli, {@link Crc32c}). */
    CRC32C("CRC-32C");

    /** Every checksum is written as a big-endian 32-bit value. */
    public static final int BYTES = 4;

    private final String label;

    FrameChecksum(String label) {
        this.label = label;
    }

    /** The checksum of a range, as the 32-bit value a frame stores. */
    public int of(byte[] bytes, int offset, int length) {
        if (this == CRC32C) {
            return Crc32c.of(bytes, offset, length);
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    /** The name operators know it by, e.g. {@code CRC-32C}. */
    public String label() {
        return label;
    }
}
