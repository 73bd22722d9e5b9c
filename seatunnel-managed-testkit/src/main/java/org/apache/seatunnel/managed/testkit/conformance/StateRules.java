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

package org.apache.seatunnel.managed.testkit.conformance;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.SourceSplitEnumerator;
import org.apache.seatunnel.api.source.managed.SupportManagedSource;

/**
 * The state-format rules of the reader contract: serializers round-trip and refuse malformed input,
 * and source events are declared and survive a restore.
 *
 * <p>Threading: one test thread per instance; see {@link ConformanceRules}.
 */
final class StateRules<T, SplitT extends SourceSplit> extends ReaderRuleSupport<T, SplitT> {
    StateRules(ConformanceTarget<T, SplitT> target, ExpectedRecords expected) {
        super(target, expected);
    }

    /** See {@link ConformanceRules#serializersRoundTripAndRefuseMalformedInput()}. */
    void serializersRoundTripAndRefuseMalformedInput() throws Exception {
        ConformanceRule rule = ConformanceRule.SERIALIZERS_ROUND_TRIP;
        Random rnd = new Random(target.seed() ^ 0xC0FFEEL);
        List<SplitT> samples = new ArrayList<>(target.splits());
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.turn(8, 8, TimeUnit.MILLISECONDS.toNanos(5));
            samples.addAll(d.snapshot(1));
        }
        for (SplitT s : samples) {
            SplitT back = checkRoundTrip(rule, "split", target.splitSerializer(), s, rnd);
            if (!s.splitId().equals(back.splitId())) {
                throw violation(
                        rule, "split id " + s.splitId() + " came back as " + back.splitId());
            }
        }
        SeaTunnelSource<T, SplitT, ?> source = target.source();
        if (source != null) {
            checkEnumeratorState(rule, source, rnd);
            if (source instanceof SupportManagedSource) {
                Serializer<SourceEvent> events =
                        ((SupportManagedSource) source).managedSourceEventSerializer();
                for (SourceEvent e : target.events()) {
                    if (events == null) {
                        throw violation(rule, "events given but the source has no serializer");
                    }
                    checkRoundTrip(rule, "source event", events, e, rnd);
                }
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void checkEnumeratorState(
            ConformanceRule rule, SeaTunnelSource<T, SplitT, ?> source, Random rnd)
            throws Exception {
        RecordingEnumeratorContext<SplitT> ctx = new RecordingEnumeratorContext<>(1);
        SourceSplitEnumerator enumerator = source.createEnumerator(ctx);
        Object state;
        try {
            enumerator.open();
            state = enumerator.snapshotState(1);
        } finally {
            enumerator.close();
        }
        if (state != null) {
            Serializer ser = source.getEnumeratorStateSerializer();
            checkRoundTrip(rule, "enumerator state", ser, state, rnd);
        }
    }

    private <V> V checkRoundTrip(
            ConformanceRule rule, String what, Serializer<V> ser, V value, Random rnd)
            throws Exception {
        byte[] bytes = ser.serialize(value);
        V back;
        try {
            back = ser.deserialize(bytes);
        } catch (IOException | RuntimeException e) {
            throw new ConformanceViolation(
                    rule,
                    what + " could not be read back from its own bytes: " + e + seedNote(),
                    e);
        }
        byte[] again = ser.serialize(back);
        if (!Arrays.equals(bytes, again)) {
            throw violation(rule, what + " serialized differently after a round trip");
        }
        for (int len = 0; len < bytes.length; len++) {
            byte[] cut = Arrays.copyOf(bytes, len);
            try {
                ser.deserialize(cut);
                throw violation(
                        rule,
                        what + " accepted its bytes truncated to " + len + " of " + bytes.length);
            } catch (IOException expected) {
                // Refused as it should be.
            } catch (RuntimeException e) {
                throw new ConformanceViolation(
                        rule,
                        what
                                + " threw "
                                + e.getClass().getName()
                                + " instead of an IOException for bytes truncated to "
                                + len
                                + javaSerializationHint(ser)
                                + seedNote(),
                        e);
            }
        }
        for (int i = 0; i < 64 && bytes.length > 0; i++) {
            byte[] flipped = bytes.clone();
            flipped[rnd.nextInt(flipped.length)] ^= (byte) (1 << rnd.nextInt(8));
            try {
                ser.deserialize(flipped);
            } catch (IOException refused) {
                // Refused, or decoded into another value: both fine for a flipped bit.
            } catch (RuntimeException e) {
                throw new ConformanceViolation(
                        rule,
                        what
                                + " threw "
                                + e.getClass().getName()
                                + " instead of an IOException for a flipped bit"
                                + seedNote(),
                        e);
            }
        }
        return back;
    }

    /** See {@link ConformanceRules#sourceEventsAreDeclaredAndSurviveRestore()}. */
    boolean sourceEventsAreDeclaredAndSurviveRestore() throws Exception {
        ConformanceRule rule = ConformanceRule.SOURCE_EVENTS_DECLARED;
        SeaTunnelSource<T, SplitT, ?> source = target.source();
        if (source == null) {
            return false;
        }
        Serializer<SourceEvent> declared =
                source instanceof SupportManagedSource
                        ? ((SupportManagedSource) source).managedSourceEventSerializer()
                        : null;
        if (declared == null) {
            List<SourceEvent> events = new ArrayList<>(target.events());
            events.add(new ProbeEvent());
            try (ReaderDriver<T, SplitT> d = open()) {
                d.addSplits(target.splits());
                readSome(d, 2, 8);
                byte[][] before = serialize(rule, d.snapshot(1));
                for (SourceEvent e : events) {
                    try {
                        d.sourceEvent(e);
                    } catch (RuntimeException refused) {
                        // Refusing an event it does not know is fine: Lane A never delivers one.
                    }
                }
                byte[][] after = serialize(rule, d.snapshot(2));
                if (!Arrays.deepEquals(before, after)) {
                    throw violation(
                            rule,
                            "handleSourceEvent changed the snapshot from "
                                    + describe(before)
                                    + " to "
                                    + describe(after)
                                    + ", but the source declares no managedSourceEventSerializer():"
                                    + " Lane A delivers no events to it");
                }
                d.noMoreSplits();
                d.readToEnd(rule);
                List<String> got = d.emitted();
                Map<String, Integer> want = multiset(expectedRecords());
                if (!want.equals(multiset(got))) {
                    throw violation(
                            rule,
                            "the records changed after source events were delivered ("
                                    + got.size()
                                    + " instead of "
                                    + expectedRecords().size()
                                    + "), but the source declares no"
                                    + " managedSourceEventSerializer(): Lane A delivers no events"
                                    + " to it");
                }
            }
            return true;
        }
        if (target.events().isEmpty()) {
            return true;
        }
        byte[][] snapshot;
        List<String> rest;
        try (ReaderDriver<T, SplitT> d = open()) {
            d.addSplits(target.splits());
            d.noMoreSplits();
            readSome(d, 2, 8);
            for (SourceEvent e : target.events()) {
                d.sourceEvent(roundTrip(rule, declared, e));
            }
            readSome(d, 2, 8);
            snapshot = serialize(rule, d.snapshot(1));
            int at = d.emitted().size();
            d.readToEnd(rule);
            rest = new ArrayList<>(d.emitted().subList(at, d.emitted().size()));
        }
        List<SplitT> splits = new ArrayList<>();
        for (byte[] b : snapshot) {
            splits.add(target.splitSerializer().deserialize(b));
        }
        List<String> restored;
        try (ReaderDriver<T, SplitT> d = open()) {
            if (!splits.isEmpty()) {
                d.addSplits(splits);
            }
            if (target.eventsResentAfterRestore()) {
                for (SourceEvent e : target.events()) {
                    d.sourceEvent(roundTrip(rule, declared, e));
                }
            }
            d.noMoreSplits();
            d.readToEnd(rule);
            restored = new ArrayList<>(d.emitted());
        }
        if (!multiset(rest).equals(multiset(restored))) {
            compare(
                    rule,
                    "a snapshot taken after source events, restored "
                            + (target.eventsResentAfterRestore()
                                    ? "with the events sent again"
                                    : "without them (events are not checkpointed: keep what"
                                            + " an event changed in the split state, or declare"
                                            + " eventsResentAfterRestore if the enumerator sends"
                                            + " them again)"),
                    rest,
                    restored);
        }
        return true;
    }

    private static SourceEvent roundTrip(
            ConformanceRule rule, Serializer<SourceEvent> ser, SourceEvent e) throws IOException {
        try {
            return ser.deserialize(ser.serialize(e));
        } catch (IOException | RuntimeException ex) {
            throw new ConformanceViolation(
                    rule, "the declared event serializer cannot carry " + e + ": " + ex, ex);
        }
    }

    /** An event of no connector's kind: a reader must not depend on it. Immutable. */
    private static final class ProbeEvent implements SourceEvent {
        private static final long serialVersionUID = 1L;

        @Override
        public String toString() {
            return "ConformanceProbeEvent";
        }
    }
}
