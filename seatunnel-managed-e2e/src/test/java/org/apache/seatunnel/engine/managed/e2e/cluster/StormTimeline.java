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

package org.apache.seatunnel.engine.managed.e2e.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Where a storm job's time went, for {@code -Dcluster.storm.timeline=true}: the bytes its sink has
 * written (every file under the job's output and temporary folders, sampled every 100 ms) next to
 * the engine's checkpoint lines of the same job, both counted from the submit. A diagnostic: it
 * asserts nothing.
 *
 * <p>Threading: {@link #start} runs the sampler on a daemon thread of its own, which alone adds
 * samples (under their monitor); {@link #stop} and {@link #render} are called by the test thread
 * after the job ended.
 */
final class StormTimeline {
    private static final long SAMPLE_MILLIS = 100;

    private final Path[] folders;
    private final long startNanos;
    private final List<long[]> samples = new ArrayList<>();
    private final ScheduledExecutorService sampler =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "storm-timeline");
                        t.setDaemon(true);
                        return t;
                    });

    private StormTimeline(Path... folders) {
        this.folders = folders;
        this.startNanos = System.nanoTime();
    }

    static StormTimeline start(Path... folders) {
        StormTimeline t = new StormTimeline(folders);
        t.sampler.scheduleAtFixedRate(t::sample, 0, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
        return t;
    }

    private void sample() {
        long bytes = 0;
        for (Path f : folders) {
            bytes += bytesUnder(f);
        }
        long at = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        synchronized (samples) {
            samples.add(new long[] {at, bytes});
        }
    }

    // Files come and go while the sink commits: one that vanished between listing and size counts
    // 0.
    private static long bytesUnder(Path folder) {
        long sum = 0;
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                try {
                    if (Files.isRegularFile(f)) {
                        sum += Files.size(f);
                    }
                } catch (NoSuchFileException gone) {
                    // moved by a commit: its bytes show up at the target on the next sample
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            return sum;
        }
        return sum;
    }

    void stop() throws InterruptedException {
        sampler.shutdown();
        if (!sampler.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the timeline sampler did not stop in 10 s");
        }
    }

    /**
     * One line per 500 ms: the rows written in it (bytes scaled by the job's bytes per row) and the
     * checkpoint events logged in it.
     *
     * @param submitTimeOfDayMillis the submit's local time of day, as the members' logs count it
     */
    String render(long rows, long submitTimeOfDayMillis, List<CheckpointLogTrace.Event> events) {
        List<long[]> s;
        synchronized (samples) {
            s = new ArrayList<>(samples);
        }
        if (s.isEmpty()) {
            return "no samples";
        }
        long totalBytes = s.get(s.size() - 1)[1];
        double bytesPerRow = rows == 0 ? 1 : Math.max(1.0, (double) totalBytes / rows);
        long end = s.get(s.size() - 1)[0];
        StringBuilder out = new StringBuilder();
        int i = 0;
        long prevBytes = 0;
        for (long from = 0; from <= end; from += 500) {
            long to = from + 500;
            long bytes = prevBytes;
            while (i < s.size() && s.get(i)[0] < to) {
                bytes = Math.max(bytes, s.get(i)[1]);
                i++;
            }
            StringBuilder marks = new StringBuilder();
            for (CheckpointLogTrace.Event e : events) {
                long at = e.timeOfDayMillis - submitTimeOfDayMillis;
                if (at >= from && at < to) {
                    marks.append(String.format(Locale.ROOT, " %s@%d", e.label, at));
                }
            }
            out.append(
                    String.format(
                            Locale.ROOT,
                            "  %5.1f s %8.0f rows/s%s%n",
                            from / 1000.0,
                            (bytes - prevBytes) / bytesPerRow * 2,
                            marks));
            prevBytes = bytes;
        }
        for (CheckpointLogTrace.Event e : events) {
            long at = e.timeOfDayMillis - submitTimeOfDayMillis;
            if (at > end) {
                out.append(String.format(Locale.ROOT, "  after: %s@%d%n", e.label, at));
            }
        }
        return out.toString();
    }
}
