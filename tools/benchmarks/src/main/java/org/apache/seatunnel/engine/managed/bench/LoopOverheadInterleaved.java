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

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * Loop overhead measured so that the machine's drift cancels: in one JVM, the bare and the managed
 * loop (each its own copy of {@link LoopOverheadSide}, loaded by its own class loader so their
 * profiles stay apart) run in alternating batches of about 30 ms, and each round's ratio compares
 * two batches that ran side by side in time, under the same heap and the same neighbours. The order
 * inside a round alternates too. Several JVMs (forks) sample how the compiler settles; which side
 * is built first alternates from fork to fork, so use an even number of forks.
 *
 * <pre>
 *   tools/run-jmh.sh --loop-overhead-interleaved [forks] [record...]   (record: row long rowBatch empty zeta)
 *   LOOP_SIDES=bare,bare tools/run-jmh.sh --loop-overhead-interleaved 4 row   (A/A calibration)
 * </pre>
 *
 * <p>Prints each fork's median overhead (managed over bare, per round) with its quartiles, then the
 * median and quartiles of every round across forks and the median and range of the fork medians.
 * Not a test: it asserts nothing about speed (it only fails if a turn did not carry its 64
 * records).
 */
public final class LoopOverheadInterleaved {
    private static final int WARMUP_SECONDS = 8;
    private static final int MEASURE_SECONDS = 20;
    private static final String SIDE_PACKAGE = LoopOverheadInterleaved.class.getPackage().getName();
    // The two sides compared, "bare,managed" unless a calibration run (A/A) asks for e.g.
    // -Dloop.sides=bare,bare, which should measure 0 % within the harness's own noise.
    private static final String SIDES = System.getProperty("loop.sides", "bare,managed");

    private LoopOverheadInterleaved() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && "--fork".equals(args[0])) {
            fork(args[1], Boolean.parseBoolean(args[2]));
            return;
        }
        int forks = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        List<String> records = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            records.add(args[i]);
        }
        if (records.isEmpty()) {
            records.add("row");
        }
        for (String record : records) {
            List<Double> ratios = new ArrayList<>();
            List<Double> forkRatios = new ArrayList<>();
            for (int f = 1; f <= forks; f++) {
                // Which side is built (loaded, compiled) first alternates from fork to fork: an
                // A/A run shows that order alone is worth about 1.5 % to the side built first.
                List<Double> mine = runFork(record, f % 2 == 0);
                forkRatios.add(Stats.median(mine));
                ratios.addAll(mine);
                System.out.printf(
                        "fork %2d record=%s rounds=%d overhead median %+.2f%% (quartiles %+.2f%% .."
                                + " %+.2f%%)%n",
                        f,
                        record,
                        mine.size(),
                        pct(Stats.median(mine)),
                        pct(Stats.quantile(mine, 0.25)),
                        pct(Stats.quantile(mine, 0.75)));
            }
            System.out.printf(
                    "RESULT sides=%s record=%s forks=%d rounds=%d overhead median %+.2f%% (quartiles %+.2f%%"
                            + " .. %+.2f%%); median of fork medians %+.2f%% (range %+.2f%% .."
                            + " %+.2f%%)%n",
                    SIDES,
                    record,
                    forks,
                    ratios.size(),
                    pct(Stats.median(ratios)),
                    pct(Stats.quantile(ratios, 0.25)),
                    pct(Stats.quantile(ratios, 0.75)),
                    pct(Stats.median(forkRatios)),
                    pct(Stats.quantile(forkRatios, 0)),
                    pct(Stats.quantile(forkRatios, 1)));
        }
    }

    private static double pct(double ratio) {
        return (ratio - 1) * 100;
    }

    /** Runs one fork in a fresh JVM and returns its rounds' managed/bare ratios. */
    private static List<Double> runFork(String record, boolean secondFirst) throws Exception {
        String java =
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        ProcessBuilder pb =
                new ProcessBuilder(
                        java,
                        "-Xms1g",
                        "-Xmx1g",
                        "-Dloop.sides=" + SIDES,
                        "-cp",
                        System.getProperty("java.class.path"),
                        LoopOverheadInterleaved.class.getName(),
                        "--fork",
                        record,
                        String.valueOf(secondFirst));
        pb.redirectErrorStream(true);
        Process p = pb.start();
        List<Double> ratios = new ArrayList<>();
        List<String> output = new ArrayList<>();
        try (BufferedReader in =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("ROUND ")) {
                    String[] parts = line.split(" ");
                    ratios.add(Double.parseDouble(parts[3]) / Double.parseDouble(parts[2]));
                } else {
                    output.add(line);
                }
            }
        }
        int rc = p.waitFor();
        if (rc != 0 || ratios.isEmpty()) {
            throw new IllegalStateException("fork failed (exit " + rc + "): " + output);
        }
        return ratios;
    }

    /** In the forked JVM: warm both sides up, then print one line per measured round. */
    private static void fork(String record, boolean secondFirst) throws Exception {
        String[] sides = SIDES.split(",");
        LongUnaryOperator bare;
        LongUnaryOperator managed;
        if (secondFirst) {
            managed = side(record, sides[1]);
            bare = side(record, sides[0]);
        } else {
            bare = side(record, sides[0]);
            managed = side(record, sides[1]);
        }
        runRounds(bare, managed, 1000, WARMUP_SECONDS, secondFirst, false);
        runRounds(bare, managed, turnsPerBatch(bare), MEASURE_SECONDS, secondFirst, true);
    }

    private static void runRounds(
            LongUnaryOperator bare,
            LongUnaryOperator managed,
            long turns,
            int seconds,
            boolean secondFirst,
            boolean print) {
        long records = turns * LoopOverheadBenchmark.RECORDS_PER_TURN;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        for (int round = 0; System.nanoTime() < end; round++) {
            long b;
            long m;
            if (((round & 1) == 0) != secondFirst) {
                b = bare.applyAsLong(turns);
                m = managed.applyAsLong(turns);
            } else {
                m = managed.applyAsLong(turns);
                b = bare.applyAsLong(turns);
            }
            if (print) {
                System.out.printf(
                        "ROUND %d %.4f %.4f%n", round, (double) b / records, (double) m / records);
            }
        }
    }

    /** Sizes a batch to about 30 ms of the warm bare loop (the fastest of a few tries). */
    private static long turnsPerBatch(LongUnaryOperator bare) {
        long turns = 1000;
        long fastest = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            fastest = Math.min(fastest, bare.applyAsLong(turns));
        }
        return Math.max(turns, turns * 30_000_000L / Math.max(1, fastest));
    }

    private static LongUnaryOperator side(String record, String which) throws Exception {
        URL classes =
                LoopOverheadInterleaved.class.getProtectionDomain().getCodeSource().getLocation();
        ClassLoader loader =
                new SideClassLoader(
                        new URL[] {classes}, LoopOverheadInterleaved.class.getClassLoader());
        Class<?> c = Class.forName(LoopOverheadSide.class.getName(), true, loader);
        if (c.getClassLoader() != loader) {
            throw new IllegalStateException("side not isolated");
        }
        return (LongUnaryOperator)
                c.getConstructor(String.class, String.class).newInstance(record, which);
    }

    /** Loads this package's classes itself (child first), everything else from the parent. */
    private static final class SideClassLoader extends URLClassLoader {
        SideClassLoader(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(SIDE_PACKAGE + ".") || name.startsWith(SIDE_PACKAGE + ".jmh_")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
