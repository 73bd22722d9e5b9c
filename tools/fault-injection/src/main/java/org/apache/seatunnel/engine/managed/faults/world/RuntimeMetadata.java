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

package org.apache.seatunnel.engine.managed.faults.world;

import org.apache.seatunnel.engine.managed.source.checkpoint.SourceRuntimeCheckpointMetadata;
import org.apache.seatunnel.engine.managed.source.coordinator.ReaderInclusionReport;
import org.apache.seatunnel.engine.managed.source.reader.ReaderCheckpointCut;

/**
 * The conversions the Zeta hosts make, mirrored here because the hosts are package-private: a
 * reader cut into {@link SourceRuntimeCheckpointMetadata} ({@code ManagedReaderHost#metadata}) and
 * metadata into the tracker's {@link ReaderInclusionReport} ({@code
 * ManagedEnumeratorHost#inclusion}). Keep them in step with those two methods. Stateless.
 */
public final class RuntimeMetadata {
    private RuntimeMetadata() {}

    /** As {@code ManagedReaderHost#metadata(ReaderCheckpointCut)}. */
    public static SourceRuntimeCheckpointMetadata metadata(
            ReaderCheckpointCut cut, long attemptId, String capabilityDigest) {
        return cut.toMetadata(capabilityDigest);
    }

    /** The same conversion the Zeta host uses. */
    public static ReaderInclusionReport inclusion(
            ReaderInclusionReport.Kind kind,
            int subtask,
            long attempt,
            SourceRuntimeCheckpointMetadata meta) {
        return ReaderInclusionReport.fromMetadata(kind, subtask, attempt, meta);
    }
}
