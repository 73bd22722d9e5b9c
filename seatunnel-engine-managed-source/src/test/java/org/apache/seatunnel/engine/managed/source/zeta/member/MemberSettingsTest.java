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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.address;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's managed-source section reaches what a member builds at start. */
class MemberSettingsTest {
    private final String before = System.getProperty(OperatorSettings.CONFIG_PROPERTY);

    @AfterEach
    void restoreProperty() {
        if (before == null) {
            System.clearProperty(OperatorSettings.CONFIG_PROPERTY);
        } else {
            System.setProperty(OperatorSettings.CONFIG_PROPERTY, before);
        }
    }

    @Test
    void commandMaxPayloadBytesReachesTheMemberTransport(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("seatunnel.yaml");
        Files.write(
                yaml,
                ("seatunnel:\n  engine:\n    managed-source:\n"
                                + "      command.max-payload-bytes: 1 MiB\n"
                                + "      reader-mailbox.max-bytes: 4 MiB\n"
                                + "      worker.mailbox-max-bytes: 64 MiB\n")
                        .getBytes(StandardCharsets.UTF_8));
        System.setProperty(OperatorSettings.CONFIG_PROPERTY, yaml.toString());

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
