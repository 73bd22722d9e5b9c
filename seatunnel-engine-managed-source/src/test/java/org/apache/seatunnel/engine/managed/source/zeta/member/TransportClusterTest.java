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

import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.envelope;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.fenced;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.mailbox;
import static org.apache.seatunnel.engine.managed.source.transport.TransportFixtures.take;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Address;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.common.config.Common;
import org.apache.seatunnel.engine.common.config.EngineConfig;
import org.apache.seatunnel.engine.common.config.SeaTunnelConfig;
import org.apache.seatunnel.engine.common.config.server.CheckpointConfig;
import org.apache.seatunnel.engine.common.config.server.CheckpointStorageConfig;
import org.apache.seatunnel.engine.common.runtime.ExecutionMode;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.transport.CommandSender;
import org.apache.seatunnel.engine.managed.source.transport.CommandTimeoutException;
import org.apache.seatunnel.engine.managed.source.transport.CoordinatorEndpoint;
import org.apache.seatunnel.engine.managed.source.transport.TransportFixtures;
import org.apache.seatunnel.engine.server.SeaTunnelServerStarter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The transport between two real SeaTunnel 2.3.8 members in this JVM (loopback, TCP-IP join): our
 * service and serializer hook are picked up from {@code META-INF/services}, operations cross the
 * wire, and the sender's retry, deadline and single-flight rules hold end to end.
 */
class TransportClusterTest {
    private static final int BASE_PORT = 5961;
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final AtomicLong SOURCE_IDS = new AtomicLong(1000);

    private static final List<HazelcastInstanceImpl> MEMBERS = new ArrayList<>();
    private static Path workDir;
    private static MemberSettings previousSettings;

    private static ManagedSourceMemberService service1;
    private static ManagedSourceMemberService service2;
    private static Address address1;
    private static Address address2;

    @BeforeAll
    static void startCluster() throws IOException {
        workDir = Files.createTempDirectory("transport-cluster-test-");
        if (System.getProperty("SEATUNNEL_HOME") == null) {
            String home = Files.createDirectories(workDir.resolve("home")).toString();
            System.setProperty("SEATUNNEL_HOME", home);
            Common.setSeaTunnelHome(home);
        }
        previousSettings = ManagedSourceMemberService.configuredSettings();
        // Short backoff so retry paths finish quickly; the rest are the defaults.
        ManagedSourceMemberService.configure(MemberSettings.defaults().withRetry(5, 50, 4096));
        String cluster = "transport-cluster-test-" + UUID.randomUUID();
        try {
            for (int i = 0; i < 2; i++) {
                MEMBERS.add(
                        SeaTunnelServerStarter.createHazelcastInstance(
                                memberConfig(cluster, i), cluster + "-m" + i));
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    MEMBERS.stream()
                                            .allMatch(
                                                    m -> m.getCluster().getMembers().size() == 2));
        } finally {
            ManagedSourceMemberService.configure(previousSettings);
        }
        service1 = ManagedSourceMemberService.of(MEMBERS.get(0));
        service2 = ManagedSourceMemberService.of(MEMBERS.get(1));
        address1 = MEMBERS.get(0).getCluster().getLocalMember().getAddress();
        address2 = MEMBERS.get(1).getCluster().getLocalMember().getAddress();
    }

    private static SeaTunnelConfig memberConfig(String cluster, int index) {
        SeaTunnelConfig config = new SeaTunnelConfig();
        Config hz = config.getHazelcastConfig();
        hz.setClusterName(cluster);
        hz.setProperty("hazelcast.phone.home.enabled", "false");
        hz.setProperty("hazelcast.socket.bind.any", "false");
        hz.setProperty("hazelcast.wait.seconds.before.join", "1");
        hz.setProperty("hazelcast.logging.type", "slf4j");
        NetworkConfig net = hz.getNetworkConfig();
        net.setPort(BASE_PORT + index);
        net.setPortAutoIncrement(false);
        net.getInterfaces().setEnabled(true).setInterfaces(Collections.singletonList("127.0.0.1"));
        net.getRestApiConfig().setEnabled(false);
        JoinConfig join = net.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig()
                .setEnabled(true)
                .setMembers(
                        Arrays.asList("127.0.0.1:" + BASE_PORT, "127.0.0.1:" + (BASE_PORT + 1)));

        EngineConfig engine = config.getEngineConfig();
        engine.setMode(ExecutionMode.CLUSTER);
        CheckpointStorageConfig storage = new CheckpointStorageConfig();
        storage.setStorage("localfile");
        Map<String, String> plugin = new HashMap<>();
        plugin.put("namespace", workDir.resolve("checkpoints-" + index).toAbsolutePath() + "/");
        storage.setStoragePluginConfig(plugin);
        CheckpointConfig checkpoint = new CheckpointConfig();
        checkpoint.setStorage(storage);
        engine.setCheckpointConfig(checkpoint);
        return config;
    }

    @AfterAll
    static void stopCluster() throws IOException {
        List<String> prefixes = new ArrayList<>();
        for (int i = MEMBERS.size() - 1; i >= 0; i--) {
            prefixes.add("hz." + MEMBERS.get(i).getName() + ".managed-source-");
            MEMBERS.get(i).shutdown();
        }
        MEMBERS.clear();
        // Member shutdown releases every thread the service started.
        await().atMost(BOUND)
                .until(
                        () ->
                                Thread.getAllStackTraces().keySet().stream()
                                        .filter(Thread::isAlive)
                                        .noneMatch(
                                                t ->
                                                        prefixes.stream()
                                                                .anyMatch(
                                                                        t.getName()::startsWith)));
        if (workDir != null) {
            try (java.util.stream.Stream<Path> paths = Files.walk(workDir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static long in(Duration d) {
        return System.currentTimeMillis() + d.toMillis();
    }

    private static AdmissionAck ackOf(CompletableFuture<AdmissionAck> f) throws Exception {
        return f.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static ReaderMailbox registerOn(
            ManagedSourceMemberService service, long source, int subtask, int maxCommands) {
        ReaderMailbox mb = mailbox(source, subtask, 1, maxCommands, service.workerBudget());
        // Every test sends from member 1.
        service.targets().registerReader(fenced(mb, address1));
        return mb;
    }

    @Test
    void serviceIsRegisteredOnEveryMemberWithItsOwnThreads() {
        assertSame(service1, ManagedSourceMemberService.of(MEMBERS.get(0).node.getNodeEngine()));
        assertNotSame(service1, service2);
        assertEquals(256L << 20, service1.workerBudget().maxBytes());
        assertEquals(50, service1.settings().retryMaxBackoffMillis());
        String watchdog = "hz." + MEMBERS.get(1).getName() + ".managed-source-watchdog";
        AtomicReference<String> ran = new AtomicReference<>();
        service2.watchdog().execute(() -> ran.set(Thread.currentThread().getName()));
        await().atMost(BOUND).until(() -> ran.get() != null);
        assertEquals(watchdog, ran.get());
        assertTrue(
                Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().equals(watchdog))
                        .allMatch(Thread::isDaemon));
    }

    @Test
    void acceptedCommandIsVisibleInTheRemoteMailbox() throws Exception {
        long source = SOURCE_IDS.incrementAndGet();
        ReaderMailbox mb = registerOn(service2, source, 0, 8);
        SourceCommandEnvelope env = envelope(CommandKind.SPLIT_ASSIGNMENT, source, 0, 1, 1);

        AdmissionAck ack = ackOf(service1.sender().send(address2, env, in(BOUND)));

        assertEquals(AdmissionStatus.ACCEPTED, ack.status());
        assertEquals(1, ack.targetAttemptId());
        assertEquals(env, take(mb));
    }

    @Test
    void localTargetIsServedToo() throws Exception {
        long source = SOURCE_IDS.incrementAndGet();
        ReaderMailbox mb = registerOn(service1, source, 0, 8);
        SourceCommandEnvelope env = envelope(CommandKind.NO_MORE_SPLITS, source, 0, 1, 1);

        assertEquals(
                AdmissionStatus.ACCEPTED,
                ackOf(service1.sender().send(address1, env, in(BOUND))).status());
        assertEquals(env, take(mb));
    }

    @Test
    void staleAttemptIsAFinalAnswer() throws Exception {
        long source = SOURCE_IDS.incrementAndGet();
        ReaderMailbox mb = registerOn(service2, source, 0, 8);
        long before = service1.metrics().finalStatus(AdmissionStatus.STALE_TARGET);

        AdmissionAck ack =
                ackOf(
                        service1.sender()
                                .send(
                                        address2,
                                        envelope(CommandKind.SPLIT_ASSIGNMENT, source, 0, 0, 1),
                                        in(BOUND)));

        assertEquals(AdmissionStatus.STALE_TARGET, ack.status());
        assertEquals(ReasonCode.STALE_ATTEMPT, ack.reasonCode());
        assertNull(mb.poll());
        assertEquals(before + 1, service1.metrics().finalStatus(AdmissionStatus.STALE_TARGET));
    }

    @Test
    void fullMailboxIsRetriedUntilTheConsumerFreesCapacity() throws Exception {
        long source = SOURCE_IDS.incrementAndGet();
        ReaderMailbox full = registerOn(service2, source, 0, 1);
        ReaderMailbox other = registerOn(service2, source, 1, 8);
        CommandSender<Address> sender = service1.sender();
        assertEquals(
                AdmissionStatus.ACCEPTED,
                ackOf(
                                sender.send(
                                        address2,
                                        envelope(CommandKind.SPLIT_ASSIGNMENT, source, 0, 1, 1),
                                        in(BOUND)))
                        .status());
        long retriesBefore = service1.metrics().retries();
        long answeredBefore = service2.metrics().answered(AdmissionStatus.RETRY_LATER);

        SourceCommandEnvelope blocked = envelope(CommandKind.SPLIT_ASSIGNMENT, source, 0, 1, 2);
        CompletableFuture<AdmissionAck> pending = sender.send(address2, blocked, in(BOUND));

        // The consumer is stalled: the target member keeps answering RETRY_LATER, which means
        // each operation returned instead of waiting for capacity ...
        await().atMost(BOUND)
                .until(
                        () ->
                                service2.metrics().answered(AdmissionStatus.RETRY_LATER)
                                                >= answeredBefore + 3
                                        && service1.metrics().retries() >= retriesBefore + 3);
        assertFalse(pending.isDone());
        // ... and operation threads stay free for other targets on the same member.
        SourceCommandEnvelope unrelated = envelope(CommandKind.SPLIT_ASSIGNMENT, source, 1, 1, 3);
        assertEquals(
                AdmissionStatus.ACCEPTED,
                ackOf(sender.send(address2, unrelated, in(BOUND))).status());
        assertEquals(unrelated, take(other));

        // The consumer frees one slot; the next retry is admitted.
        assertEquals(1L, take(full).commandId());
        assertEquals(AdmissionStatus.ACCEPTED, ackOf(pending).status());
        assertEquals(blocked, take(full));
    }

    @Test
    void singleFlightKeepsTheOrderOfAHundredEnvelopes() throws Exception {
        long source = SOURCE_IDS.incrementAndGet();
        // A small mailbox, so that some envelopes are answered RETRY_LATER on the way.
        ReaderMailbox mb = registerOn(service2, source, 0, 4);
        List<Long> received = new CopyOnWriteArrayList<>();
        Thread consumer =
                new Thread(
                        () -> {
                            while (received.size() < 100
                                    && !Thread.currentThread().isInterrupted()) {
                                SourceCommandEnvelope env = take(mb);
                                if (env == null) {
                                    mb.signal().await(TimeUnit.MILLISECONDS.toNanos(5));
                                } else {
                                    received.add(env.commandId());
                                }
                            }
                        },
                        "transport-test-consumer");
        consumer.setDaemon(true);

        long retryLaterBefore = service2.metrics().answered(AdmissionStatus.RETRY_LATER);
        List<CompletableFuture<AdmissionAck>> futures = new ArrayList<>();
        List<Long> sent = new ArrayList<>();
        for (long id = 1; id <= 100; id++) {
            sent.add(id);
            futures.add(
                    service1.sender()
                            .send(
                                    address2,
                                    envelope(CommandKind.SPLIT_ASSIGNMENT, source, 0, 1, id),
                                    in(BOUND)));
        }
        // Start consuming only once the mailbox has pushed back, so the order is proven across
        // RETRY_LATER answers and retries, not just on a free path.
        await().atMost(BOUND)
                .until(
                        () ->
                                service2.metrics().answered(AdmissionStatus.RETRY_LATER)
                                        > retryLaterBefore);
        consumer.start();
        try {
            long lastSequence = -1;
            for (CompletableFuture<AdmissionAck> f : futures) {
                AdmissionAck ack = ackOf(f);
                assertEquals(AdmissionStatus.ACCEPTED, ack.status());
                assertTrue(ack.mailboxSequence() > lastSequence, "sequence follows send order");
                lastSequence = ack.mailboxSequence();
            }
            await().atMost(BOUND).until(() -> received.size() == 100);
            assertEquals(sent, received);
        } finally {
            consumer.interrupt();
            consumer.join(BOUND.toMillis());
        }
    }

    @Test
    void unknownTargetIsRetriedUntilTheDeadline() {
        long source = SOURCE_IDS.incrementAndGet();
        CompletableFuture<AdmissionAck> f =
                service1.sender()
                        .send(
                                address2,
                                envelope(CommandKind.SPLIT_ASSIGNMENT, source, 0, 1, 1),
                                in(Duration.ofMillis(500)));

        ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(f));
        CommandTimeoutException timeout =
                assertInstanceOf(CommandTimeoutException.class, e.getCause());
        assertTrue(timeout.attempts() > 1, "attempts: " + timeout.attempts());
        assertEquals(ReasonCode.NO_SUCH_TARGET, timeout.lastAck().reasonCode());
    }

    @Test
    void addressWithoutAMemberIsATransportFailureRetriedUntilTheDeadline() {
        long failuresBefore = service1.metrics().transportFailures();
        CompletableFuture<AdmissionAck> f =
                service1.sender()
                        .send(
                                TransportFixtures.address(BASE_PORT + 7),
                                envelope(CommandKind.SPLIT_ASSIGNMENT, 1, 0, 1, 1),
                                in(Duration.ofMillis(500)));

        ExecutionException e = assertThrows(ExecutionException.class, () -> ackOf(f));
        CommandTimeoutException timeout =
                assertInstanceOf(CommandTimeoutException.class, e.getCause());
        // Hazelcast's own retries (250 tries, 500 ms apart) are off: ours ran several times.
        assertTrue(timeout.attempts() > 1, "attempts: " + timeout.attempts());
        assertNull(timeout.lastAck());
        assertTrue(service1.metrics().transportFailures() > failuresBefore);
    }

    @Test
    void coordinatorEndpointReceivesARegistrationFromTheOtherMember() throws Exception {
        long source = SOURCE_IDS.incrementAndGet();
        List<SourceCommandEnvelope> inbox = new CopyOnWriteArrayList<>();
        AtomicReference<Address> from = new AtomicReference<>();
        AtomicReference<String> thread = new AtomicReference<>();
        CoordinatorEndpoint<Address> endpoint =
                (env, sender) -> {
                    inbox.add(env);
                    from.set(sender);
                    thread.set(Thread.currentThread().getName());
                    return AdmissionAck.accepted(77, inbox.size() - 1);
                };
        service1.targets().registerCoordinator(source, endpoint);
        try {
            SourceCommandEnvelope registration =
                    envelope(CommandKind.READER_REGISTRATION, source, 3, 77, 1);

            AdmissionAck ack = ackOf(service2.sender().send(address1, registration, in(BOUND)));

            assertEquals(AdmissionStatus.ACCEPTED, ack.status());
            assertEquals(List.of(registration), inbox);
            assertEquals(address2, from.get());
            // Remote operations run on Hazelcast's generic operation threads.
            assertTrue(thread.get().contains("generic-operation"), thread.get());
        } finally {
            service1.targets().unregisterCoordinator(source, endpoint);
        }
    }
}
