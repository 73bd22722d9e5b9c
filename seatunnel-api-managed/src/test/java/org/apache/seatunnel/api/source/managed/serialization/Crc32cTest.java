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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class Crc32cTest {

    @Test
    void knownVectorMatchesCastagnoliCheckValue() {
        // The "check" value of CRC-32C from the Rocksoft/Williams CRC catalogue.
        byte[] input = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0xE3069283, Crc32c.of(input));
        assertEquals(0xE3069283, Crc32c.of(input, 0, input.length));
        assertEquals(0xE3069283, Crc32c.ofTable(input, 0, input.length));
    }

    @Test
    void onJava9OrLaterTheJdkImplementationIsUsed() {
        // The tests run on Java 17; Java 8 falls back to the table checked below.
        assertTrue(Crc32c.usesJdk());
    }

    @Test
    void emptyInputIsZero() {
        assertEquals(0, Crc32c.of(new byte[0]));
    }

    @Test
    void theJava8TableAgreesWithJdkCrc32cOnRandomSlices() {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        System.out.println("Crc32cTest seed=" + seed);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 2000; i++) {
            byte[] data = new byte[rnd.nextInt(0, 1025)];
            rnd.nextBytes(data);
            int off = data.length == 0 ? 0 : rnd.nextInt(0, data.length + 1);
            int len = rnd.nextInt(0, data.length - off + 1);
            CRC32C jdk = new CRC32C();
            jdk.update(data, off, len);
            int caseNo = i;
            assertEquals(
                    (int) jdk.getValue(),
                    Crc32c.ofTable(data, off, len),
                    () -> "seed=" + seed + " case=" + caseNo + " len=" + len);
            assertEquals((int) jdk.getValue(), Crc32c.of(data, off, len));
        }
    }

    @Test
    void updateContinuesAcrossChunksLikeOneCall() {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        System.out.println("Crc32cTest chunk seed=" + seed);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 500; i++) {
            byte[] data = new byte[rnd.nextInt(0, 513)];
            rnd.nextBytes(data);
            int cut = rnd.nextInt(0, data.length + 1);
            int chained = Crc32c.update(Crc32c.of(data, 0, cut), data, cut, data.length - cut);
            int caseNo = i;
            assertEquals(
                    Crc32c.of(data),
                    chained,
                    () -> "seed=" + seed + " case=" + caseNo + " cut=" + cut);
        }
    }
}
