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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.connectors.managed.enumerator.DiscoveryState;
import org.junit.jupiter.api.Test;

/**
 * Golden bytes of ManagedIceberg's checkpointed formats, version 1: the split (record offset and
 * Iceberg's task JSON), the cursor, and the enumerator state around them; and bad input refused
 * with a reason. The golden files are in {@code src/test/resources/golden}; a change of format is a
 * new version, never a new golden file.
 */
class IcebergSerializersTest {
    /** u8 1 | u8 flags=7 | i64 position 41 | u8 kind 1 | u8 1 | i64 from 41 | i64 to 42 | i64 3 */
    static final String CURSOR_V1 =
            "01"
                    + "07"
                    + "0000000000000029"
                    + "01"
                    + "01"
                    + "0000000000000029"
                    + "000000000000002a"
                    + "0000000000000003";

    static IcebergSplit split(String path, long offset) {
        PartitionSpec spec = PartitionSpec.unpartitioned();
        DataFile file =
                DataFiles.builder(spec)
                        .withPath(path)
                        .withFormat(FileFormat.PARQUET)
                        .withFileSizeInBytes(1234)
                        .withRecordCount(10)
                        .build();
        return new IcebergSplit(
                new BaseFileScanTask(
                        file,
                        new DeleteFile[0],
                        SchemaParser.toJson(IcebergTestTable.SCHEMA),
                        PartitionSpecParser.toJson(spec),
                        ResidualEvaluator.unpartitioned(Expressions.alwaysTrue())),
                offset);
    }

    static DiscoveryState<IcebergSplit, IcebergCursor> state() {
        IcebergCursor cursor =
                IcebergCursor.at(41L).withRange(IcebergCursor.Range.appends(41L, 42L).handedOut(3));
        return new DiscoveryState<>(
                cursor,
                false,
                Arrays.asList(
                        split("file:/golden/db/t/data/a.parquet", 0),
                        split("file:/golden/db/t/data/b.parquet", 7)));
    }

    /** The golden file; when it is missing, what this build writes goes to target/ to review. */
    private static String golden(String name, String actual) throws IOException {
        try (InputStream in = IcebergSerializersTest.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                java.nio.file.Path out = java.nio.file.Paths.get("target", "golden-actual", name);
                java.nio.file.Files.createDirectories(out.getParent());
                java.nio.file.Files.write(out, actual.getBytes(StandardCharsets.US_ASCII));
            }
            assertNotNull(
                    in,
                    "missing golden file " + name + " (this build's bytes: target/golden-actual)");
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
        }
    }

    private static <T> String hex(Serializer<T> s, T v) throws IOException {
        return HexFormat.of().formatHex(s.serialize(v));
    }

    @Test
    void cursorVersion1() throws IOException {
        IcebergCursor.Serializer s = new IcebergCursor.Serializer();
        IcebergCursor c = state().cursor();
        assertEquals(CURSOR_V1, hex(s, c));
        assertEquals(c, s.deserialize(HexFormat.of().parseHex(CURSOR_V1)));
        assertEquals(IcebergCursor.INITIAL, s.deserialize(s.serialize(IcebergCursor.INITIAL)));
        assertEquals("0100", hex(s, IcebergCursor.INITIAL));
        IcebergCursor atNothing = IcebergCursor.at(null);
        assertEquals("0101", hex(s, atNothing));
        assertEquals(atNothing, s.deserialize(s.serialize(atNothing)));
    }

    @Test
    void splitVersion1() throws IOException {
        IcebergSplitSerializer s = new IcebergSplitSerializer(false);
        IcebergSplit split = split("file:/golden/db/t/data/b.parquet", 7);
        String expected = golden("iceberg-split-v1.hex", hex(s, split));
        assertEquals(expected, hex(s, split));
        IcebergSplit back = s.deserialize(HexFormat.of().parseHex(expected));
        assertEquals(split.splitId(), back.splitId());
        assertEquals(7, back.recordOffset());
        assertEquals(10, back.task().file().recordCount());
        assertEquals(IcebergTestTable.SCHEMA.asStruct(), back.task().schema().asStruct());
    }

    @Test
    void enumeratorStateVersion1() throws IOException {
        Serializer<DiscoveryState<IcebergSplit, IcebergCursor>> s =
                ManagedIcebergSource.stateSerializer(false);
        String expected = golden("iceberg-enumerator-state-v1.hex", hex(s, state()));
        assertEquals(expected, hex(s, state()));
        DiscoveryState<IcebergSplit, IcebergCursor> back =
                s.deserialize(HexFormat.of().parseHex(expected));
        assertEquals(state().cursor(), back.cursor());
        assertEquals(2, back.pending().size());
        assertEquals(7, back.pending().get(1).recordOffset());
        assertEquals(state().pending().get(0).splitId(), back.pending().get(0).splitId());
    }

    @Test
    void badInputIsRefusedWithAReason() throws IOException {
        IcebergCursor.Serializer c = new IcebergCursor.Serializer();
        assertTrue(refused(c, "02" + CURSOR_V1.substring(2)).contains("unknown version 2"));
        assertTrue(refused(c, "0180").contains("flags"));
        assertTrue(refused(c, CURSOR_V1.substring(0, 20)).contains("truncated"));
        assertTrue(refused(c, CURSOR_V1 + "00").contains("trailing"));
        assertTrue(refused(c, "0104" + "07").contains("range kind"));
        IcebergSplitSerializer s = new IcebergSplitSerializer(false);
        String split = hex(s, split("file:/x.parquet", 1));
        assertTrue(
                refused(s, "01" + "ffffffffffffffff" + split.substring(18)).contains("negative"));
        assertTrue(
                refused(s, "01" + split.substring(2, 18) + "7fffffff" + split.substring(26))
                        .contains("does not fit"));
        assertTrue(refused(s, split.substring(0, split.length() - 4)).contains("truncated"));
    }

    private static <T> String refused(Serializer<T> s, String hex) {
        return assertThrows(IOException.class, () -> s.deserialize(HexFormat.of().parseHex(hex)))
                .getMessage();
    }
}
