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

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs Prometheus's {@code promtool} (Debian's package {@code prometheus}, installed by {@code
 * .ci/run} when missing) for the tests that check what Prometheus makes of our metrics.
 */
final class Promtool {
    /** The exit code of {@code promtool check metrics} when it found lint problems only. */
    static final int LINT_PROBLEMS = 3;

    private Promtool() {}

    /** The promtool on the PATH, if any. */
    static Optional<Path> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir, "promtool");
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Why a test that needs promtool is skipped. */
    static final String MISSING =
            "promtool is not on the PATH: install Prometheus's tools (apt-get install prometheus)"
                    + " to check what Prometheus makes of the scrape";

    /** Exit code and merged output of one promtool run. */
    static final class Result {
        final int exitCode;
        final String output;

        Result(int exitCode, String output) {
            this.exitCode = exitCode;
            this.output = output;
        }

        List<String> lines() {
            List<String> out = new ArrayList<>();
            for (String l : output.split("\n")) {
                if (!l.trim().isEmpty()) {
                    out.add(l);
                }
            }
            return out;
        }

        @Override
        public String toString() {
            return "exit " + exitCode + ":\n" + output;
        }
    }

    /** Runs {@code promtool args...} with {@code stdin}, bounded by 60 s. */
    static Result run(Path promtool, byte[] stdin, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(promtool.toString());
        command.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream o = p.getInputStream()) {
            byte[] buf = new byte[8192];
            int n;
            while ((n = o.read(buf)) > 0) {
                out.write(buf, 0, n);
            }
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("promtool " + args[0] + " did not end in 60 s");
        }
        return new Result(p.exitValue(), new String(out.toByteArray(), StandardCharsets.UTF_8));
    }
}
