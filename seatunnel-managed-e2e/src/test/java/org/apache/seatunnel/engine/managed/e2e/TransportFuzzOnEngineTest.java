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

package org.apache.seatunnel.engine.managed.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.cluster.Address;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.spi.impl.NodeEngine;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.seatunnel.connectors.managed.fake.ManagedFakeSource;
import org.apache.seatunnel.engine.core.job.JobStatus;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LogCapture;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceMemberService;
import org.apache.seatunnel.engine.managed.source.zeta.transport.DeliverCommandOperation;
import org.apache.seatunnel.managed.testkit.engine.CollectedRows;
import org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta;
import org.apache.seatunnel.managed.testkit.engine.LaneASettings;
import org.apache.seatunnel.managed.testkit.engine.RuntimeStats;
import org.junit.jupiter.api.Test;

/**
 * An attacker's member: while a Lane A job runs on two members, one member sends the other
 * thousands of frames through the real {@link DeliverCommandOperation} — garbage, truncated,
 * bit-flipped, oversize, and well-formed frames of every kind that claim another job, another
 * subtask, another epoch or attempt, or the live coordinator and readers with forged ids. Every
 * frame is refused (nothing is admitted, nothing applied), the job neither fails nor restarts and
 * keeps producing rows, and the heap after GC does not grow with the number of frames.
 *
 * <p>{@code -Dfuzz.seed=S} replays a run; {@code -Dfuzz.frames=N} (default 12,000) sets its size.
 */
class TransportFuzzOnEngineTest {
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final String JOB = "transport-fuzz";
    private static final int IN_FLIGHT = 64;
    private static final int MAX_PAYLOAD = 512 << 10;

    /** What the attacker knows about the live job: ids it can observe or guess. */
    private static final class Live {
        final long jobId;
        final List<Long> sources;
        final List<ReaderMailbox> readers;

        Live(long jobId, List<Long> sources, List<ReaderMailbox> readers) {
            this.jobId = jobId;
            this.sources = sources;
            this.readers = readers;
        }
    }

    @Test
    void framesFromAnotherMemberAreRefusedWhileAJobRuns() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        int frames = Integer.getInteger("fuzz.frames", 12_000);
        System.out.printf("[TransportFuzzOnEngineTest] seed %d, %d frames%n", seed, frames);
        SplittableRandom rnd = new SplittableRandom(seed);

        LaneASettings.enable(List.of(JOB), List.of(ManagedFakeSource.IDENTIFIER));
        String runId = "transport-fuzz-1";
        RuntimeStats.reset();
        try (EmbeddedZeta zeta = EmbeddedZeta.builder("transport-fuzz", 22720).members(2).start();
                LogCapture subPlan =
                        LogCapture.attach(
                                "org.apache.seatunnel.engine.server.dag.physical.SubPlan");
                LogCapture runtime =
                        LogCapture.attach("org.apache.seatunnel.engine.managed.source.zeta")) {
            long jobId =
                    zeta.submit(
                            ManagedJobs.streaming(
                                    JOB,
                                    "    split.count = 4\n    bounded = false\n"
                                            + "    rows.per.second = 200\n",
                                    runId));
            zeta.awaitStatus(jobId, JobStatus.RUNNING, BOUND);
            CollectedRows rows = CollectedRows.of(runId);
            await().atMost(BOUND).until(() -> rows.written().size() >= 100);
            assertEquals(2, RuntimeStats.readersOpened(), "both readers run on Lane A");

            HazelcastInstanceImpl[] members = {zeta.member(0), zeta.member(1)};
            ManagedSourceMemberService[] services = {
                ManagedSourceMemberService.of(members[0]), ManagedSourceMemberService.of(members[1])
            };
            List<Long> sources = new ArrayList<>();
            List<ReaderMailbox> readers = new ArrayList<>();
            for (ManagedSourceMemberService s : services) {
                sources.addAll(s.targets().coordinatorSources());
                readers.addAll(s.targets().readerMailboxes());
            }
            assertEquals(1, sources.size(), "one Lane A coordinator");
            assertEquals(2, readers.size(), "two Lane A readers");
            Live live = new Live(jobId, sources, readers);

            long refusedBefore =
                    services[0].metrics().refusedTotal() + services[1].metrics().refusedTotal();
            long heapBefore = usedHeapAfterGc();

            Map<AdmissionStatus, Integer> answers = new EnumMap<>(AdmissionStatus.class);
            List<CompletableFuture<byte[]>> inFlight = new ArrayList<>();
            for (int i = 0; i < frames; i++) {
                int target = rnd.nextInt(2);
                NodeEngine from = members[1 - target].node.getNodeEngine();
                Address to = members[target].node.getNodeEngine().getThisAddress();
                inFlight.add(
                        from.getOperationService()
                                .createInvocationBuilder(
                                        ManagedSourceMemberService.SERVICE_NAME,
                                        new DeliverCommandOperation(frame(rnd, live)),
                                        to)
                                .setTryCount(1)
                                .<byte[]>invoke()
                                .toCompletableFuture());
                if (inFlight.size() == IN_FLIGHT || i == frames - 1) {
                    for (CompletableFuture<byte[]> f : inFlight) {
                        AdmissionAck ack =
                                AdmissionAckCodec.decode(f.get(30, TimeUnit.SECONDS)).ack();
                        answers.merge(ack.status(), 1, Integer::sum);
                    }
                    inFlight.clear();
                }
            }
            System.out.printf("[TransportFuzzOnEngineTest] answers %s%n", answers);

            assertFalse(answers.containsKey(AdmissionStatus.ACCEPTED), answers.toString());
            assertFalse(answers.containsKey(AdmissionStatus.DUPLICATE), answers.toString());
            int total = answers.values().stream().mapToInt(Integer::intValue).sum();
            assertEquals(frames, total, "every frame answered");
            long refused =
                    services[0].metrics().refusedTotal()
                            + services[1].metrics().refusedTotal()
                            - refusedBefore;
            int retries = answers.getOrDefault(AdmissionStatus.RETRY_LATER, 0);
            assertEquals(frames - retries, refused, "every final refusal is counted");

            // The job is untouched: still running on the same two readers, producing rows,
            // never restarted, no runtime ERROR.
            int afterFuzz = rows.written().size();
            await().atMost(BOUND).until(() -> rows.written().size() >= afterFuzz + 100);
            assertEquals(JobStatus.RUNNING, zeta.status(jobId));
            assertEquals(2, RuntimeStats.readersOpened(), "no reader restarted");
            assertEquals(List.of(), subPlan.matching(Level.INFO, "Restore time"));
            assertEquals(List.of(), runtime.matching(Level.ERROR, ""));
            assertEquals(
                    0,
                    services[0].metrics().handlerFailures()
                            + services[1].metrics().handlerFailures(),
                    "no frame, real or forged, made a runtime handler throw");

            long heapAfter = usedHeapAfterGc();
            System.out.printf(
                    "[TransportFuzzOnEngineTest] heap after GC: %d KiB before, %d KiB after%n",
                    heapBefore >> 10, heapAfter >> 10);
            assertTrue(
                    heapAfter - heapBefore < (32L << 20),
                    "heap after GC grew by " + ((heapAfter - heapBefore) >> 20) + " MiB");
            zeta.cancel(jobId, BOUND);
        } finally {
            CollectedRows.clear(runId);
            LaneASettings.clear();
        }
    }

    private static long usedHeapAfterGc() {
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return mem.getHeapMemoryUsage().getUsed();
    }

    private static byte[] frame(SplittableRandom rnd, Live live) {
        switch (rnd.nextInt(6)) {
            case 0:
                return garbage(rnd);
            case 1:
                return truncated(rnd, wellFormed(rnd, live));
            case 2:
                return bitFlipped(rnd, wellFormed(rnd, live));
            case 3:
                return rnd.nextInt(20) == 0 ? oversize(rnd, live) : wellFormed(rnd, live);
            default:
                return wellFormed(rnd, live);
        }
    }

    private static byte[] garbage(SplittableRandom rnd) {
        byte[] b = new byte[rnd.nextInt(300)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) rnd.nextInt(256);
        }
        return b;
    }

    private static byte[] truncated(SplittableRandom rnd, byte[] frame) {
        return java.util.Arrays.copyOf(frame, rnd.nextInt(frame.length));
    }

    private static byte[] bitFlipped(SplittableRandom rnd, byte[] frame) {
        byte[] b = frame.clone();
        int flips = 1 + rnd.nextInt(3);
        for (int i = 0; i < flips; i++) {
            b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
        }
        return b;
    }

    private static byte[] oversize(SplittableRandom rnd, Live live) {
        return SourceCommandCodec.encode(
                envelope(rnd, live).payload(new byte[MAX_PAYLOAD + 1]).build());
    }

    private static byte[] wellFormed(SplittableRandom rnd, Live live) {
        return SourceCommandCodec.encode(envelope(rnd, live).build());
    }

    /**
     * A well-formed frame of any kind that claims something it is not: a real source with another
     * job, a subtask out of range, a forged attempt or epoch, a local-only kind, a malformed
     * payload — or an unknown source.
     */
    private static SourceCommandEnvelope.Builder envelope(SplittableRandom rnd, Live live) {
        CommandKind[] kinds = CommandKind.values();
        CommandKind kind = kinds[rnd.nextInt(kinds.length)];
        boolean known = rnd.nextInt(10) != 0;
        long source = known ? live.sources.get(rnd.nextInt(live.sources.size())) : rnd.nextLong();
        ReaderMailbox reader = live.readers.get(rnd.nextInt(live.readers.size()));
        int subtask;
        switch (rnd.nextInt(4)) {
            case 0:
                subtask = 2 + rnd.nextInt(100);
                break;
            case 1:
                subtask = -1 - rnd.nextInt(100);
                break;
            default:
                subtask = reader.subtask();
        }
        byte[] payload = new byte[rnd.nextInt(4) == 0 ? 8 : rnd.nextInt(64)];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) rnd.nextInt(256);
        }
        // Never the live attempt: an attacker does not know it (it is a random 63-bit id).
        long attempt = 1 + rnd.nextLong(Long.MAX_VALUE - 1);
        if (attempt == reader.attemptId()) {
            attempt++;
        }
        return SourceCommandEnvelope.builder(kind)
                .jobId(rnd.nextInt(3) == 0 ? rnd.nextLong() : live.jobId)
                .sourceRuntimeId(source)
                .targetSubtask(subtask)
                .coordinatorEpoch(rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(5))
                .senderAttemptId(rnd.nextInt(2) == 0 ? attempt : 1 + rnd.nextInt(5))
                .targetAttemptId(attempt)
                .senderSequence(1 + rnd.nextInt(1000))
                .commandId(1 + rnd.nextLong(Long.MAX_VALUE - 1))
                .coordinatorCutId(rnd.nextInt(5))
                .payloadVersion(1)
                .payload(payload);
    }
}
