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

package org.apache.seatunnel.connectors.managed.fake;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.connectors.managed.serialization.VersionedSerializer;

/**
 * The versioned binary form of ManagedFake's source events, so they never travel as Java
 * serialization (STIP-31: events are bytes of the connector's own serializer, not persisted).
 *
 * <pre>{@code
 * version 1: u8 version=1 | UTF runId | i32 targetSubtask   (big-endian)
 * }</pre>
 *
 * <p>Threading: stateless.
 */
public final class ManagedFakeEventSerializer extends VersionedSerializer<SourceEvent> {
    private static final long serialVersionUID = 1L;

    @Override
    protected int version() {
        return 1;
    }

    @Override
    protected void write(DataOutputStream out, SourceEvent event) throws IOException {
        if (!(event instanceof ManagedFakeEvent)) {
            throw new IOException("not a ManagedFake event: " + event.getClass().getName());
        }
        ManagedFakeEvent e = (ManagedFakeEvent) event;
        out.writeUTF(e.runId());
        out.writeInt(e.targetSubtask());
    }

    @Override
    protected SourceEvent read(DataInputStream in, int version) throws IOException {
        return new ManagedFakeEvent(in.readUTF(), in.readInt());
    }
}
