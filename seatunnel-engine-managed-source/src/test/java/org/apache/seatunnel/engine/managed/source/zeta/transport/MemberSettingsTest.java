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

package org.apache.seatunnel.engine.managed.source.zeta.transport;

import static org.apache.seatunnel.engine.managed.source.zeta.transport.TransportFixtures.address;
import static org.apache.seatunnel.engine.managed.source.zeta.transport.TransportFixtures.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.zeta.ManagedSourceSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The operator's managed-source section reaches what a member builds at start. */
class MemberSettingsTest {
    @AfterEach
    void uninstall() {
        ManagedSourceSettings.install(null);
    }

    @Test
    void commandMaxPayloadBytesReachesTheMemberTransport() {
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("command.max-payload-bytes", "1 MiB");
        section.put("reader-mailbox.max-bytes", "4 MiB");
        section.put("worker.mailbox-max-bytes", "64 MiB");
        ManagedSourceSettings.install(ManagedSourceConfig.fromMap(section));

        ManagedSourceMemberService service = new ManagedSourceMemberService();

        assertEquals(1 << 20, service.settings().maxPayloadBytes());
        assertEquals(1 << 20, service.adapter().maxPayloadBytes());
        assertEquals(64L << 20, service.workerBudget().maxBytes());
        // A 600 KiB command, above the 512 KiB default, is no longer refused as oversize.
        byte[] frame =
                SourceCommandCodec.encode(
                        envelope(CommandKind.SPLIT_ASSIGNMENT, 3, 0, 1, 1).toBuilder()
                                .payload(new byte[600 << 10])
                                .build());
        AdmissionAck ack = service.adapter().deliver(frame, address(5701));
        assertNotEquals(ReasonCode.OVERSIZE, ack.reasonCode());
        assertEquals(ReasonCode.NO_SUCH_TARGET, ack.reasonCode());
    }
}
