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

package org.apache.seatunnel.api.source.managed;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.seatunnel.api.annotation.Experimental;

/**
 * What a {@link ManagedSourceReader} promises the Lane A runtime, as a versioned descriptor rather
 * than a boolean. Immutable.
 *
 * <p>The {@link #digest()} is recorded in the job plan and in every checkpoint; a restore whose
 * installed connector reports a different digest fails before execution, unless the recorded digest
 * is one of {@link #restorableDigests()} (a tested migration from an older descriptor version). It
 * is computed from a canonical big-endian encoding of the descriptor version and every field, so it
 * is the same in every JVM and release until a field changes.
 *
 * <p>The promises, each checked where Lane A relies on it:
 *
 * <ul>
 *   <li>{@link #boundedPoll()}: {@code pollNextManaged} honours the turn's budget and deadline (the
 *       runtime's poll turns, watchdog and conformance rule POLL_WITHIN_BUDGET);
 *   <li>{@link #wakeup()}: {@code wakeup()} ends a wait inside a turn promptly and is thread-safe
 *       (the runtime calls it on cancel, failure and hard budget overruns).
 * </ul>
 *
 * Both are required for Lane A. Descriptor version 1 also had {@code attemptFencing}, {@code
 * sourceEvents} and {@code asyncEnumerator}; the runtime never read them (attempt fencing is always
 * on, events are delivered whenever the source has an event serializer, every enumerator may use
 * the scheduler), so version 2 removed them.
 *
 * <pre>{@code
 * canonical form (14 bytes), SHA-256 truncated to 16 bytes, lower-case hex:
 *   0  "MSC1"                    4 bytes ASCII
 *   4  descriptorVersion         u16   2 (1 in restorable digests)
 *   6  protocolMajor             u16
 *   8  protocolMinor             u16
 *  10  flags                     u8    bit0 boundedPoll, bit1 wakeup; bits 2-7 zero
 *                                      (version 1: bits 2-4 were the removed flags)
 *  11  reserved                  3 bytes, zero
 * }</pre>
 */
@Experimental
public final class ManagedSourceCapability {

    public static final int DESCRIPTOR_VERSION = 2;

    /** The descriptor version whose digests restore through the version 1 to 2 migration. */
    static final int MIGRATED_DESCRIPTOR_VERSION = 1;

    /** The runtime command protocol this SPI release speaks. */
    public static final int CURRENT_PROTOCOL_MAJOR = 1;

    public static final int CURRENT_PROTOCOL_MINOR = 0;

    private static final int FLAG_BOUNDED_POLL = 1;
    private static final int FLAG_WAKEUP = 1 << 1;

    private final int descriptorVersion;
    private final int protocolMajor;
    private final int protocolMinor;
    private final int flags;
    private final String digest;

    private ManagedSourceCapability(
            int descriptorVersion, int protocolMajor, int protocolMinor, int flags) {
        this.descriptorVersion = descriptorVersion;
        this.protocolMajor = protocolMajor;
        this.protocolMinor = protocolMinor;
        this.flags = flags;
        this.digest = computeDigest(descriptorVersion, protocolMajor, protocolMinor, flags);
    }

    public static Builder builder() {
        return new Builder();
    }

    public int descriptorVersion() {
        return descriptorVersion;
    }

    public int protocolMajor() {
        return protocolMajor;
    }

    public int protocolMinor() {
        return protocolMinor;
    }

    public boolean boundedPoll() {
        return (flags & FLAG_BOUNDED_POLL) != 0;
    }

    public boolean wakeup() {
        return (flags & FLAG_WAKEUP) != 0;
    }

    /** 32 lower-case hex characters; stable across JVMs and releases for equal descriptors. */
    public String digest() {
        return digest;
    }

    /**
     * The digests a checkpoint may have recorded for this capability and still restore: this digest
     * and the descriptor version 1 digest of the same promises (version 2 only removed flags
     * nothing read, so a reader of either version behaves the same).
     */
    public List<String> restorableDigests() {
        return Collections.unmodifiableList(
                Arrays.asList(
                        digest,
                        computeDigest(
                                MIGRATED_DESCRIPTOR_VERSION, protocolMajor, protocolMinor, flags)));
    }

    /**
     * The reasons this descriptor cannot run on Lane A with a runtime speaking {@code
     * runtimeProtocolMajor}, or an empty string when it can. Lane A needs bounded poll and wakeup
     * and the same protocol major version.
     */
    public String laneAIneligibilityReason(int runtimeProtocolMajor) {
        StringBuilder sb = new StringBuilder();
        if (protocolMajor != runtimeProtocolMajor) {
            sb.append("protocol major ")
                    .append(protocolMajor)
                    .append(" != runtime ")
                    .append(runtimeProtocolMajor)
                    .append("; ");
        }
        if (!boundedPoll()) {
            sb.append("bounded poll not declared; ");
        }
        if (!wakeup()) {
            sb.append("wakeup not declared; ");
        }
        return sb.length() == 0 ? "" : sb.substring(0, sb.length() - 2);
    }

    static String computeDigest(int version, int major, int minor, int flags) {
        ByteBuffer buf = ByteBuffer.allocate(14);
        buf.put("MSC1".getBytes(StandardCharsets.US_ASCII));
        buf.putShort((short) version);
        buf.putShort((short) major);
        buf.putShort((short) minor);
        buf.put((byte) flags);
        buf.put(new byte[3]);
        byte[] sha;
        try {
            sha = MessageDigest.getInstance("SHA-256").digest(buf.array());
        } catch (NoSuchAlgorithmException e) {
            // Every Java SE platform must provide SHA-256.
            throw new IllegalStateException(e);
        }
        char[] hex = new char[32];
        for (int i = 0; i < 16; i++) {
            hex[2 * i] = Character.forDigit((sha[i] >> 4) & 0xf, 16);
            hex[2 * i + 1] = Character.forDigit(sha[i] & 0xf, 16);
        }
        return new String(hex);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ManagedSourceCapability)) {
            return false;
        }
        ManagedSourceCapability c = (ManagedSourceCapability) o;
        return descriptorVersion == c.descriptorVersion
                && protocolMajor == c.protocolMajor
                && protocolMinor == c.protocolMinor
                && flags == c.flags;
    }

    @Override
    public int hashCode() {
        return digest.hashCode();
    }

    @Override
    public String toString() {
        return "ManagedSourceCapability{v"
                + descriptorVersion
                + ", protocol="
                + protocolMajor
                + '.'
                + protocolMinor
                + ", boundedPoll="
                + boundedPoll()
                + ", wakeup="
                + wakeup()
                + ", digest="
                + digest
                + '}';
    }

    /** Builder; every flag defaults to false and the protocol to this SPI's version. */
    public static final class Builder {
        private int protocolMajor = CURRENT_PROTOCOL_MAJOR;
        private int protocolMinor = CURRENT_PROTOCOL_MINOR;
        private int flags;

        private Builder() {}

        public Builder protocolVersion(int major, int minor) {
            if (major < 0 || major > 0xffff || minor < 0 || minor > 0xffff) {
                throw new IllegalArgumentException(
                        "protocol version out of range: " + major + '.' + minor);
            }
            this.protocolMajor = major;
            this.protocolMinor = minor;
            return this;
        }

        public Builder boundedPoll(boolean on) {
            return flag(FLAG_BOUNDED_POLL, on);
        }

        public Builder wakeup(boolean on) {
            return flag(FLAG_WAKEUP, on);
        }

        private Builder flag(int bit, boolean on) {
            flags = on ? flags | bit : flags & ~bit;
            return this;
        }

        public ManagedSourceCapability build() {
            return new ManagedSourceCapability(
                    DESCRIPTOR_VERSION, protocolMajor, protocolMinor, flags);
        }
    }
}
