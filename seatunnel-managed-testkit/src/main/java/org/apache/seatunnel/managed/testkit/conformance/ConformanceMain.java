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

import java.io.File;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.api.configuration.ReadonlyConfig;
import org.apache.seatunnel.api.configuration.util.ConfigValidator;
import org.apache.seatunnel.api.configuration.util.OptionRule;
import org.apache.seatunnel.api.configuration.util.RequiredOption;
import org.apache.seatunnel.api.source.SeaTunnelSource;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.table.factory.FactoryUtil;
import org.apache.seatunnel.api.table.factory.TableSourceFactory;
import org.apache.seatunnel.api.table.factory.TableSourceFactoryContext;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.shade.com.typesafe.config.Config;
import org.apache.seatunnel.shade.com.typesafe.config.ConfigFactory;

/**
 * Runs the conformance suite against a connector jar from the command line, for an author outside
 * this repository:
 *
 * <pre>
 * java -cp &lt;testkit and its dependencies&gt; \
 *     org.apache.seatunnel.managed.testkit.conformance.ConformanceMain \
 *     &lt;connector-jar&gt; &lt;factory-identifier&gt; &lt;fixture.conf&gt;
 * </pre>
 *
 * ({@code tools/conformance.sh} builds the class path.) It loads the jar in a class loader of its
 * own, finds the {@code TableSourceFactory} of the identifier through SeaTunnel's factory
 * discovery, builds the source from the options in the fixture file (HOCON, the keys of the
 * connector's options at the top level; an optional {@code conformance} block is not passed on),
 * makes the fixture splits by running the source's enumerator (a reference run), then runs every
 * reader rule and every enumerator rule and prints one line per rule: {@code PASS}, {@code SKIP}
 * with the reason, or {@code FAIL} with the violation. Exit status: 0 when nothing failed, 1 when a
 * rule failed, 2 when the run could not start (usage, jar, factory, options).
 *
 * <p>The source must be bounded (every rule reads the fixture to its end) and its rows must differ
 * (records are told apart by all their fields, or by {@code conformance.record-key-fields}).
 *
 * <p>Threading: runs on the calling thread.
 */
public final class ConformanceMain {

    private ConformanceMain() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    /** Runs the suite as {@link #main} does, printing to {@code out}; returns the exit status. */
    public static int run(String[] args, PrintStream out) {
        if (args.length != 3) {
            out.println(
                    "usage: ConformanceMain <connector-jar> <factory-identifier> <fixture.conf>");
            return 2;
        }
        File jar = new File(args[0]);
        File conf = new File(args[2]);
        if (!jar.isFile() || !conf.isFile()) {
            out.println("ERROR  no such file: " + (jar.isFile() ? conf : jar));
            return 2;
        }
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader =
                new URLClassLoader(
                        new URL[] {jar.toURI().toURL()}, ConformanceMain.class.getClassLoader())) {
            Thread.currentThread().setContextClassLoader(loader);
            Config file = ConfigFactory.parseFile(conf).resolve();
            Config settings =
                    file.hasPath("conformance")
                            ? file.getConfig("conformance")
                            : ConfigFactory.empty();
            Setup setup;
            try {
                setup = setUp(loader, args[1], file.withoutPath("conformance"), settings);
            } catch (Exception | LinkageError e) {
                out.println("ERROR  " + e);
                return 2;
            }
            out.println(
                    "conformance of "
                            + args[1]
                            + " from "
                            + jar.getName()
                            + ": "
                            + setup.splits.size()
                            + " fixture splits, seed "
                            + setup.seed);
            return runRules(setup, out);
        } catch (Exception e) {
            out.println("ERROR  " + e);
            return 2;
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    /** The source, its fixture splits and the rules' settings. Immutable. */
    private static final class Setup {
        final SeaTunnelSource<Object, SourceSplit, java.io.Serializable> source;
        final List<SourceSplit> splits;
        final int parallelism;
        final long seed;
        final List<Integer> keyFields;

        Setup(
                SeaTunnelSource<Object, SourceSplit, java.io.Serializable> source,
                List<SourceSplit> splits,
                int parallelism,
                long seed,
                List<Integer> keyFields) {
            this.source = source;
            this.splits = splits;
            this.parallelism = parallelism;
            this.seed = seed;
            this.keyFields = keyFields;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Setup setUp(
            ClassLoader loader, String identifier, Config options, Config settings)
            throws Exception {
        TableSourceFactory factory =
                FactoryUtil.discoverFactory(loader, TableSourceFactory.class, identifier);
        OptionRule rule = factory.optionRule();
        ReadonlyConfig config = ReadonlyConfig.fromMap(flatten(options, declaredKeys(rule)));
        ConfigValidator.of(config).validate(rule);
        SeaTunnelSource source =
                factory.createSource(new TableSourceFactoryContext(config, loader)).createSource();
        int parallelism = settings.hasPath("parallelism") ? settings.getInt("parallelism") : 2;
        long seed =
                settings.hasPath("seed")
                        ? settings.getLong("seed")
                        : Long.getLong("conformance.seed", 20261201L);
        List<Integer> keyFields =
                settings.hasPath("record-key-fields")
                        ? settings.getIntList("record-key-fields")
                        : null;
        EnumeratorRules<SourceSplit, java.io.Serializable> reference =
                new EnumeratorRules<>(
                        EnumeratorTarget.forSource(source)
                                .parallelism(parallelism)
                                .seed(seed)
                                .build());
        List<SourceSplit> splits = new ArrayList<>();
        for (byte[] b : reference.expectedSplits().values()) {
            splits.add((SourceSplit) source.getSplitSerializer().deserialize(b));
        }
        return new Setup(source, splits, parallelism, seed, keyFields);
    }

    /** Every option key the factory declares, so a map-typed option stays one value. */
    private static Set<String> declaredKeys(OptionRule rule) {
        Set<String> keys = new HashSet<>();
        for (Option<?> o : rule.getOptionalOptions()) {
            keys.add(o.key());
        }
        for (RequiredOption r : rule.getRequiredOptions()) {
            for (Option<?> o : r.getOptions()) {
                keys.add(o.key());
            }
        }
        return keys;
    }

    /**
     * The options as a flat map of dotted keys: HOCON reads {@code split.count = 4} as a nested
     * object, the connector's options are keyed {@code "split.count"}. A declared key keeps its
     * value whole (a map option).
     */
    static Map<String, Object> flatten(Config options, Set<String> declared) {
        Map<String, Object> out = new LinkedHashMap<>();
        flatten("", options.root().unwrapped(), declared, out);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void flatten(
            String prefix,
            Map<String, Object> tree,
            Set<String> declared,
            Map<String, Object> out) {
        for (Map.Entry<String, Object> e : tree.entrySet()) {
            String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            if (e.getValue() instanceof Map && !declared.contains(key)) {
                flatten(key, (Map<String, Object>) e.getValue(), declared, out);
            } else {
                out.put(key, e.getValue());
            }
        }
    }

    /** A rule as the command line runs it: true if it ran, false if it does not apply. */
    private interface Check {
        boolean run() throws Exception;
    }

    private static int runRules(Setup s, PrintStream out) {
        ConformanceTarget.Builder<Object, SourceSplit> readerTarget =
                ConformanceTarget.forSource(s.source).splits(s.splits).seed(s.seed);
        if (s.keyFields != null) {
            List<Integer> fields = s.keyFields;
            readerTarget.recordKey(
                    record -> {
                        if (!(record instanceof SeaTunnelRow)) {
                            return String.valueOf(record);
                        }
                        StringBuilder k = new StringBuilder();
                        for (int f : fields) {
                            k.append(
                                            ConformanceTarget.defaultKey(
                                                    ((SeaTunnelRow) record).getField(f)))
                                    .append('|');
                        }
                        return k.toString();
                    });
        }
        ConformanceRules<Object, SourceSplit> r = new ConformanceRules<>(readerTarget.build());
        EnumeratorRules<SourceSplit, java.io.Serializable> e =
                new EnumeratorRules<>(
                        EnumeratorTarget.forSource(s.source)
                                .parallelism(s.parallelism)
                                .seed(s.seed)
                                .build());
        Map<ConformanceRule, Check> checks = new LinkedHashMap<>();
        checks.put(ConformanceRule.READS_FIXTURE_TO_END, () -> !r.expectedRecords().isEmpty());
        checks.put(
                ConformanceRule.POLL_WITHIN_BUDGET,
                ok(r::pollReturnsWithinBudgetAndHonoursShouldYield));
        checks.put(ConformanceRule.NO_LOST_WAKEUP, ok(r::noLostWakeupUnderAdversarialTiming));
        checks.put(ConformanceRule.WAKEUP_THREAD_SAFE, ok(r::wakeupIsIdempotentAndThreadSafe));
        checks.put(ConformanceRule.SNAPSHOT_EMIT_ATOMIC, ok(r::snapshotAndEmitAreAtomic));
        checks.put(
                ConformanceRule.SNAPSHOT_INCLUDES_NEW_SPLITS,
                ok(r::snapshotIncludesSplitsAddedInTheSameTurn));
        checks.put(ConformanceRule.ADD_SPLITS_IDEMPOTENT, ok(r::duplicateAddSplitsIsIdempotent));
        checks.put(ConformanceRule.RESTORE_IN_FRESH_CLASS_LOADER, r::restoreInFreshClassLoader);
        checks.put(
                ConformanceRule.SERIALIZERS_ROUND_TRIP,
                ok(r::serializersRoundTripAndRefuseMalformedInput));
        checks.put(
                ConformanceRule.NO_BACKGROUND_STATE_CHANGE,
                ok(r::noBackgroundThreadChangesSnapshotState));
        checks.put(ConformanceRule.CLOSE_LEAVES_NO_THREAD, ok(r::closeLeavesNoThreadBehind));
        checks.put(ConformanceRule.CALLBACK_IDEMPOTENT, ok(r::callbacksAreIdempotent));
        checks.put(
                ConformanceRule.SOURCE_EVENTS_DECLARED,
                r::sourceEventsAreDeclaredAndSurviveRestore);
        checks.put(
                ConformanceRule.CONTEXT_CLASS_LOADER_RESTORED, ok(r::contextClassLoaderIsRestored));
        // A reader that never waits in a turn passes: nothing to wake.
        checks.put(
                ConformanceRule.WAKEUP_ENDS_BLOCKED_POLL,
                () -> {
                    r.wakeupEndsABlockedPoll();
                    return true;
                });
        checks.put(
                ConformanceRule.ENUMERATOR_RESTORES_FROM_ANY_SNAPSHOT,
                ok(e::restoresFromEverySnapshot));
        checks.put(
                ConformanceRule.ENUMERATOR_REASSIGNS_SPLITS_BACK, ok(e::reassignsSplitsHandedBack));
        checks.put(ConformanceRule.ENUMERATOR_ANY_REGISTRATION_ORDER, ok(e::anyRegistrationOrder));
        checks.put(ConformanceRule.ENUMERATOR_CURSOR_MONOTONIC, e::discoveryCursorIsMonotonic);
        checks.put(ConformanceRule.ENUMERATOR_NO_DUPLICATE_ASSIGNMENT, ok(e::noSplitAssignedTwice));
        checks.put(
                ConformanceRule.ENUMERATOR_NO_MORE_SPLITS_WHEN_DONE,
                ok(e::noMoreSplitsOnlyWhenDone));
        int passed = 0;
        int failed = 0;
        int skipped = 0;
        for (Map.Entry<ConformanceRule, Check> c : checks.entrySet()) {
            String name = c.getKey().name();
            try {
                if (c.getValue().run()) {
                    out.println("PASS  " + name);
                    passed++;
                } else {
                    out.println("SKIP  " + name + "  " + skipReason(c.getKey()));
                    skipped++;
                }
            } catch (ConformanceViolation v) {
                out.println("FAIL  " + name + "  " + v.getMessage());
                failed++;
            } catch (Throwable t) {
                out.println("FAIL  " + name + "  the rule could not run: " + t);
                failed++;
            }
        }
        out.println(
                passed
                        + " passed, "
                        + failed
                        + " failed, "
                        + skipped
                        + " skipped [replay: -Dconformance.seed="
                        + s.seed
                        + "]");
        return failed == 0 ? 0 : 1;
    }

    private interface RuleCall {
        void run() throws Exception;
    }

    private static Check ok(RuleCall rule) {
        return () -> {
            rule.run();
            return true;
        };
    }

    private static String skipReason(ConformanceRule rule) {
        switch (rule) {
            case ENUMERATOR_CURSOR_MONOTONIC:
                return "no discovery cursor can be named from the command line";
            case RESTORE_IN_FRESH_CLASS_LOADER:
            case SOURCE_EVENTS_DECLARED:
                return "no source";
            default:
                return "does not apply";
        }
    }
}
