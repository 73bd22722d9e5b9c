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

package org.apache.seatunnel.engine.managed.source.reader;

import org.apache.seatunnel.api.table.type.SeaTunnelRow;

/** Stateless. How a poll turn estimates the bytes of the records it emits. */
public final class RecordSizes {
    private RecordSizes() {}

    /**
     * The byte size of a {@link SeaTunnelRow}, 0 for anything else. A row computes its size once
     * and caches it, and the engine's source collector asks every row for its size anyway, so
     * sampling a row moves that computation rather than adding one.
     */
    public static long ofRecord(Object record) {
        return record instanceof SeaTunnelRow ? ((SeaTunnelRow) record).getBytesSize() : 0;
    }
}
