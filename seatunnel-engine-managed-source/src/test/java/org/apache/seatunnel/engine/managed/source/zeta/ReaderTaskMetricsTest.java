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

package org.apache.seatunnel.engine.managed.source.zeta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.api.common.metrics.Meter;
import org.apache.seatunnel.api.common.metrics.MetricsContext;
import org.apache.seatunnel.api.common.metrics.ThreadSafeCounter;
import org.apache.seatunnel.api.source.managed.SnapshotGauge;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.config.ReaderMetricsLevel;
import org.apache.seatunnel.engine.managed.source.coordinator.CoordinatorMetrics;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.apache.seatunnel.engine.managed.source.transport.MemberMetric;
import org.apache.seatunnel.engine.managed.source.transport.TransportMetrics;
import org.apache.seatunnel.engine.managed.source.zeta.member.ManagedSourceTelemetry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The reader metrics in the task's metrics context: exactly what the docs list, shippable. */
class ReaderTaskMetricsTest {
    private static final Pattern NAME = Pattern.compile("`(ManagedSource[A-Za-z{}]+)`");

    private static final class RecordingContext implements MetricsContext {
        final Map<String, Counter> counters = new LinkedHashMap<>();

        @Override
        public Counter counter(String name) {
            return counter(name, new ThreadSafeCounter(name));
        }

        @Override
        public <C extends Counter> C counter(String name, C counter) {
            counters.put(name, counter);
            return counter;
        }

        @Override
        public Meter meter(String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <M extends Meter> M meter(String name, M meter) {
            throw new UnsupportedOperationException();
        }
    }

    private static ReaderMailbox mailbox() {
        return new ReaderMailbox(
                1,
                1,
                0,
                1,
                ManagedSourceConfig.defaults().mailboxLimits(),
                new WorkerMailboxBudget(1 << 20),
                NanoClock.SYSTEM,
                new LoopSignal(),
                new ReaderMailboxMetrics());
    }

    /**
     * The names in the first table of the doc's {@code index}-th {@code ## } section: the rows up
     * to the first line after them that is not a table row.
     */
    static TreeSet<String> documentedFirstTable(Path doc, int index) throws IOException {
        String text = new String(Files.readAllBytes(doc), StandardCharsets.UTF_8);
        String section = text.split("\n## ")[index + 1];
        StringBuilder table = new StringBuilder();
        boolean inTable = false;
        for (String line : section.split("\n")) {
            if (line.startsWith("|")) {
                inTable = true;
                table.append(line).append('\n');
            } else if (inTable) {
                break;
            }
        }
        return names(table.toString());
    }

    /**
     * The names in the tables of the doc's {@code index}-th {@code ## } section (0: reader, 1:
     * reader base, 2: coordinator, 3: member), {@code {Status}} expanded to every admission status
     * and {@code {Reason}} to every reason code.
     */
    static TreeSet<String> documented(Path doc, int index) throws IOException {
        String text = new String(Files.readAllBytes(doc), StandardCharsets.UTF_8);
        return names(text.split("\n## ")[index + 1]);
    }

    /** The names in the first cell of each table row of {@code markdown}, expanded. */
    private static TreeSet<String> names(String markdown) {
        TreeSet<String> names = new TreeSet<>();
        for (String line : markdown.split("\n")) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String firstCell = line.substring(1, line.indexOf('|', 1));
            Matcher m = NAME.matcher(firstCell);
            while (m.find()) {
                String n = m.group(1);
                if (n.endsWith("{Reason}")) {
                    String prefix = n.substring(0, n.length() - "{Reason}".length());
                    for (ReasonCode r : ReasonCode.values()) {
                        if (r != ReasonCode.NONE) {
                            names.add(prefix + TransportMetrics.pascal(r.name()));
                        }
                    }
                } else if (n.endsWith("{Status}")) {
                    String prefix = n.substring(0, n.length() - "{Status}".length());
                    for (AdmissionStatus s : AdmissionStatus.values()) {
                        names.add(
                                prefix
                                        + ReaderTaskMetrics.admissionName(s)
                                                .substring(
                                                        ReaderTaskMetrics.ADMISSION_PREFIX
                                                                .length()));
                    }
                } else {
                    names.add(n);
                }
            }
        }
        return names;
    }

    /** Every name one reader task registers at {@code level}, host metrics included. */
    private static List<String> registered(
            RecordingContext ctx, ReaderMetricsLevel level, boolean offLoopCheck) {
        List<String> registered =
                new java.util.ArrayList<>(
                        ReaderTaskMetrics.register(
                                ctx,
                                mailbox(),
                                new ReaderLoopMetrics(),
                                () -> 0L,
                                level,
                                offLoopCheck));
        registered.addAll(
                ReaderTaskMetrics.registerHostMetrics(
                        ctx,
                        new org.apache.seatunnel.engine.managed.source.reader.OutboundRequests(1),
                        () -> 0L,
                        level));
        assertEquals(registered.size(), ctx.counters.size(), "one counter per name, no clash");
        return registered;
    }

    @ParameterizedTest
    @ValueSource(strings = {"../docs/en/metrics.md", "../docs/zh/metrics.md"})
    void docsListExactlyTheReaderMetricsTheTaskRegisters(String doc) throws IOException {
        List<String> registered =
                registered(new RecordingContext(), ReaderMetricsLevel.DETAILED, true);
        assertEquals(
                documented(Path.of(doc), 0),
                new TreeSet<>(registered),
                doc + " reader tables vs ReaderTaskMetrics at DETAILED, off-loop check on");
        for (String n : registered) {
            assertTrue(n.matches("ManagedSource[A-Z][A-Za-z]+"), "PascalCase, no labels: " + n);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"../docs/en/metrics.md", "../docs/zh/metrics.md"})
    void theBasicLevelRegistersTheDocsFirstReaderTableAndTheOffLoopPairOnlyWithTheCheck(String doc)
            throws IOException {
        TreeSet<String> basicTable = documentedFirstTable(Path.of(doc), 0);
        assertEquals(
                basicTable,
                new TreeSet<>(registered(new RecordingContext(), ReaderMetricsLevel.BASIC, true)),
                doc + " first reader table vs ReaderTaskMetrics at BASIC, off-loop check on");
        TreeSet<String> withoutCheck = new TreeSet<>(basicTable);
        withoutCheck.remove(ReaderTaskMetrics.OFF_LOOP_STATE_CHECKS);
        withoutCheck.remove(ReaderTaskMetrics.OFF_LOOP_STATE_CHANGES);
        assertEquals(basicTable.size() - 2, withoutCheck.size(), "the pair is in the basic table");
        assertEquals(
                withoutCheck,
                new TreeSet<>(registered(new RecordingContext(), ReaderMetricsLevel.BASIC, false)));
        TreeSet<String> detailedWithoutCheck =
                new TreeSet<>(
                        registered(new RecordingContext(), ReaderMetricsLevel.DETAILED, false));
        assertTrue(detailedWithoutCheck.containsAll(withoutCheck), "DETAILED adds to BASIC");
        assertTrue(
                !detailedWithoutCheck.contains(ReaderTaskMetrics.OFF_LOOP_STATE_CHANGES),
                "the off-loop pair needs the check at DETAILED too");
    }

    @Test
    void theDefaultLevelIsBasic() {
        assertEquals(ReaderMetricsLevel.BASIC, ManagedSourceConfig.defaults().readerMetricsLevel());
    }

    @ParameterizedTest
    @ValueSource(strings = {"../docs/en/metrics.md", "../docs/zh/metrics.md"})
    void docsListExactlyTheCoordinatorMetricsTheEnumeratorTaskRegisters(String doc)
            throws IOException {
        RecordingContext ctx = new RecordingContext();
        List<String> registered = CoordinatorTaskMetrics.register(ctx, new CoordinatorMetrics());
        assertEquals(
                documented(Path.of(doc), 2),
                new TreeSet<>(registered),
                doc + " coordinator table vs CoordinatorTaskMetrics");
        assertEquals(registered.size(), ctx.counters.size(), "one counter per name, no clash");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../docs/en/metrics.md", "../docs/zh/metrics.md"})
    void docsListExactlyTheMemberMetricsOnTheTelemetryEndpoint(String doc) throws IOException {
        TreeSet<String> exported = new TreeSet<>();
        for (MemberMetric<?> d : ManagedSourceTelemetry.metrics()) {
            exported.add(d.exportedName() + " " + d.kind().name().toLowerCase(Locale.ROOT));
        }
        assertEquals(
                documentedMember(Path.of(doc)),
                exported,
                doc + " member table (names as scraped, kind) vs ManagedSourceTelemetry");
    }

    private static final Pattern SCRAPED_NAME =
            Pattern.compile(
                    "`(ManagedSource[A-Za-z]*)(\\{Status}|\\{Reason})?([A-Za-z]*)(_total)?`");

    /**
     * "name kind" of every row of the member section (index 3): names as the scrape shows them
     * ({@code _total} on counters), {@code {Status}} and {@code {Reason}} expanded.
     */
    static TreeSet<String> documentedMember(Path doc) throws IOException {
        String text = new String(Files.readAllBytes(doc), StandardCharsets.UTF_8);
        String section = text.split("\n## ")[4];
        TreeSet<String> rows = new TreeSet<>();
        for (String line : section.split("\n")) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            String kind = cells[2].trim();
            Matcher m = SCRAPED_NAME.matcher(cells[1]);
            while (m.find()) {
                List<String> middles = new java.util.ArrayList<>();
                if ("{Status}".equals(m.group(2))) {
                    for (AdmissionStatus st : AdmissionStatus.values()) {
                        middles.add(TransportMetrics.pascal(st.name()));
                    }
                } else if ("{Reason}".equals(m.group(2))) {
                    for (ReasonCode r : ReasonCode.values()) {
                        if (r != ReasonCode.NONE) {
                            middles.add(TransportMetrics.pascal(r.name()));
                        }
                    }
                } else {
                    middles.add("");
                }
                String suffix = m.group(4) == null ? "" : m.group(4);
                for (String middle : middles) {
                    rows.add(m.group(1) + middle + m.group(3) + suffix + " " + kind);
                }
            }
        }
        return rows;
    }

    @Test
    void everyMemberMetricHasItsOwnHelpAndCountersAreScrapedWithTotal() {
        java.util.Set<String> helps = new java.util.HashSet<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (MemberMetric<?> d : ManagedSourceTelemetry.metrics()) {
            assertTrue(names.add(d.name()), "declared once: " + d);
            assertTrue(helps.add(d.help()), "a help text of its own: " + d + ": " + d.help());
            assertEquals(
                    d.kind() == MemberMetric.Kind.COUNTER ? d.name() + "_total" : d.name(),
                    d.exportedName());
        }
        assertEquals(names.size(), ManagedSourceTelemetry.names().size());
    }

    @Test
    void gaugesReadLiveValuesAndShipAsTheEnginesOwnCounter() throws Exception {
        RecordingContext ctx = new RecordingContext();
        ReaderMailbox mailbox = mailbox();
        long[] now = {1_000L};
        ReaderTaskMetrics.register(
                ctx,
                mailbox,
                new ReaderLoopMetrics(),
                () -> now[0],
                ReaderMetricsLevel.DETAILED,
                false);
        Counter accepted =
                ctx.counters.get(ReaderTaskMetrics.admissionName(AdmissionStatus.ACCEPTED));
        assertEquals(0, accepted.getCount());
        assertEquals(0, ctx.counters.get(ReaderTaskMetrics.MAILBOX_OLDEST_AGE_NANOS).getCount());

        long[] live = {42};
        Counter gauge = new SnapshotGauge("ManagedSourceX", () -> live[0]);
        // What the engine does with a task's metrics: Java-serialize them for the master, whose
        // class loader may not see this class's jar.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(gauge);
        }
        live[0] = 7;
        Object shipped;
        try (ObjectInputStream in =
                new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            shipped = in.readObject();
        }
        ThreadSafeCounter c = assertInstanceOf(ThreadSafeCounter.class, shipped);
        assertEquals("ManagedSourceX", c.name());
        assertEquals(42, c.getCount(), "the value at shipping time");
        assertEquals(7, gauge.getCount(), "the gauge itself stays live");
    }
}
