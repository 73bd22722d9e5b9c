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

import org.apache.seatunnel.api.annotation.Experimental;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceEvent;

/**
 * Implemented by a {@code SeaTunnelSource} whose readers are {@link ManagedSourceReader}s, so the
 * runtime can choose the lane when the job is planned, before any reader exists. Every reader the
 * source creates must report an equal capability; a mismatch fails the reader at open.
 */
@Experimental
public interface SupportManagedSource {

    /** The capability every reader of this source reports; stable for a given build. */
    ManagedSourceCapability managedSourceCapability();

    /**
     * The versioned serializer of the source events this connector's enumerator sends to its
     * readers on Lane A, or null if it sends none. Events travel as these bytes, never as Java
     * serialization, and are not persisted (STIP-31 non-goal 5).
     */
    default Serializer<SourceEvent> managedSourceEventSerializer() {
        return null;
    }
}
