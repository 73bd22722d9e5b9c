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

import org.apache.seatunnel.api.annotation.Experimental;

/** Why a {@link FrameReader} refused its input; a bounded set, safe as a metric label. */
@Experimental
public enum FrameRefusal {
    /** The frame does not start with its format's magic. */
    BAD_MAGIC,
    /** The frame's version (major version for a major/minor frame) is not one this reader reads. */
    UNSUPPORTED_VERSION,
    /** The input ends before the frame or a field does. */
    TRUNCATED,
    /** A declared length or count exceeds its bound. */
    OVERSIZE,
    /** A field has a value its format does not allow. */
    BAD_FIELD,
    /** Bytes follow the end of the frame. */
    TRAILING_BYTES,
    /** The checksum does not match the bytes it covers. */
    CHECKSUM_MISMATCH;

    /** The operator-readable message of a refusal of {@code format}'s input. */
    String message(String format, String detail) {
        switch (this) {
            case TRUNCATED:
                return "Truncated " + format + ": " + detail;
            case TRAILING_BYTES:
                return "Trailing bytes after " + format + ": " + detail;
            case UNSUPPORTED_VERSION:
                return "Unsupported " + format + ": " + detail;
            case CHECKSUM_MISMATCH:
                return format + " checksum mismatch: " + detail;
            default:
                return format + ": " + detail;
        }
    }
}
