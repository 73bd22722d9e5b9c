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

package org.apache.seatunnel.engine.managed.source.protocol;

/**
 * CRC-32C for the runtime's callers: the implementation is the state-serializer support's {@link
 * org.apache.seatunnel.api.source.managed.serialization.Crc32c}, which the connector kit shares.
 *
 * <p>Threading: stateless, any thread.
 */
public final class Crc32c {
    private Crc32c() {}

    /** Continues a CRC: pass 0 to start; returns the finished CRC of everything seen so far. */
    public static int update(int crc, byte[] bytes, int offset, int length) {
        return org.apache.seatunnel.api.source.managed.serialization.Crc32c.update(
                crc, bytes, offset, length);
    }

    public static int of(byte[] bytes, int offset, int length) {
        return org.apache.seatunnel.api.source.managed.serialization.Crc32c.of(
                bytes, offset, length);
    }

    public static int of(byte[] bytes) {
        return of(bytes, 0, bytes.length);
    }
}
