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

package org.apache.seatunnel.engine.managed.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link LoopOverheadBenchmark} as paired forks — bare loop, managed loop, alternating which
 * goes first — and reports the managed/bare ratio of each pair. On a shared machine whose speed
 * drifts by tens of percent over a minute, forks run back to back see the same machine, so the
 * median of the pair ratios measures the loop's overhead where two long runs one after the other
 * would mostly measure the drift.
 *
 * <p>Usage: {@code LoopOverheadComparison [pairs] [record...]}, e.g. {@code 10 row long}.
 */
public final class LoopOverheadComparison {
    private LoopOverheadComparison() {}

    public static void main(String[] args) throws Exception {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        List<String> records = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            records.add(args[i]);
        }
        if (records.isEmpty()) {
            records.add("row");
            records.add("long");
        }
        for (String record : records) {
            List<Double> ratios = new ArrayList<>();
            List<Double> fastestRatios = new ArrayList<>();
            List<Double> bare = new ArrayList<>();
            List<Double> managed = new ArrayList<>();
            for (int p = 0; p < pairs; p++) {
                List<Double> b;
                List<Double> m;
                if (p % 2 == 0) {
                    b = forkScores("barePollTurn", record);
                    m = forkScores("managedLoopTurn", record);
                } else {
                    m = forkScores("managedLoopTurn", record);
                    b = forkScores("barePollTurn", record);
                }
                bare.add(Stats.median(b));
                managed.add(Stats.median(m));
                ratios.add(Stats.median(m) / Stats.median(b));
                // Interference only ever slows an iteration down, so each fork's fastest
                // iteration is the other view of its undisturbed speed.
                fastestRatios.add(Collections.min(m) / Collections.min(b));
                System.out.printf(
                        "pair %2d record=%s bare %.2f ns managed %.2f ns ratio %.3f"
                                + " (fastest iterations %.2f / %.2f ns, ratio %.3f)%n",
                        p + 1,
                        record,
                        Stats.median(b),
                        Stats.median(m),
                        Stats.median(m) / Stats.median(b),
                        Collections.min(b),
                        Collections.min(m),
                        Collections.min(m) / Collections.min(b));
            }
            System.out.printf(
                    "RESULT record=%s pairs=%d bare median %.2f ns/record, managed median %.2f"
                            + " ns/record, overhead median %+.1f%% (quartiles %+.1f%% .. %+.1f%%);"
                            + " fastest-iteration overhead median %+.1f%%%n",
                    record,
                    pairs,
                    Stats.median(bare),
                    Stats.median(managed),
                    (Stats.median(ratios) - 1) * 100,
                    (Stats.quantile(ratios, 0.25) - 1) * 100,
                    (Stats.quantile(ratios, 0.75) - 1) * 100,
                    (Stats.median(fastestRatios) - 1) * 100);
        }
    }

    private static List<Double> forkScores(String method, String record) throws Exception {
        Options options =
                new OptionsBuilder()
                        .include(LoopOverheadBenchmark.class.getName() + "." + method + "$")
                        .param("record", record)
                        .forks(1)
                        .warmupIterations(4)
                        .warmupTime(TimeValue.seconds(1))
                        .measurementIterations(5)
                        .measurementTime(TimeValue.seconds(1))
                        .jvmArgsAppend("-Xms1g", "-Xmx1g")
                        .verbosity(VerboseMode.SILENT)
                        .build();
        List<Double> scores = new ArrayList<>();
        for (RunResult run : new Runner(options).run()) {
            for (BenchmarkResult br : run.getBenchmarkResults()) {
                for (IterationResult it : br.getIterationResults()) {
                    scores.add(it.getPrimaryResult().getScore());
                }
            }
        }
        if (scores.isEmpty()) {
            throw new IllegalStateException("no results for " + method + " record=" + record);
        }
        return scores;
    }
}
