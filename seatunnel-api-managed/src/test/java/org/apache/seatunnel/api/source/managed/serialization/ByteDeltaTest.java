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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class ByteDeltaTest {

    private static byte[] write(int v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteDelta.writeVarint(v, out::write);
        return out.toByteArray();
    }

    private static long read(int... bytes) {
        int[] at = {0};
        return ByteDelta.readVarint(
                () -> {
                    if (at[0] == bytes.length) {
                        throw new NoSuchElementException("read past the input");
                    }
                    return bytes[at[0]++];
                });
    }

    @Test
    void varintGoldenBytes() {
        assertArrayEquals(new byte[] {0x00}, write(0));
        assertArrayEquals(new byte[] {0x7F}, write(127));
        assertArrayEquals(new byte[] {(byte) 0x80, 0x01}, write(128));
        assertArrayEquals(new byte[] {(byte) 0xAC, 0x02}, write(300));
        assertArrayEquals(
                new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07},
                write(Integer.MAX_VALUE));
    }

    @Test
    void varintRoundTripsAndSizeAgreesWithWhatIsWritten() {
        int[] values = {0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, Integer.MAX_VALUE};
        for (int v : values) {
            byte[] b = write(v);
            assertEquals(ByteDelta.varintSize(v), b.length, "size of " + v);
            int[] u = new int[b.length];
            for (int i = 0; i < b.length; i++) {
                u[i] = b[i] & 0xFF;
            }
            assertEquals(v, read(u), "round trip of " + v);
        }
    }

    @Test
    void aVarintLongerThanFiveBytesIsTooLong() {
        assertEquals(ByteDelta.VARINT_TOO_LONG, read(0x80, 0x80, 0x80, 0x80, 0x80, 0x01));
    }

    @Test
    void aFiveByteVarintAboveIntRangeIsReturnedForTheCallerToRefuse() {
        // 0xFF x4 then 0x7F: 2^35 - 1, which fits five bytes but no int.
        assertEquals((1L << 35) - 1, read(0xFF, 0xFF, 0xFF, 0xFF, 0x7F));
    }
}
