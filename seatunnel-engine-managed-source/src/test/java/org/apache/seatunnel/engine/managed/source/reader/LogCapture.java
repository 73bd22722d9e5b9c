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

package org.apache.seatunnel.engine.managed.source.reader;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.slf4j.LoggerFactory;

/**
 * Captures, in memory, what the runtime logs at INFO and above under one logger name, through the
 * SLF4J binding of the test class path (Log4j 2, which SeaTunnel's engine brings). Without a log
 * configuration Log4j 2 keeps only ERROR, so the capture installs its own logger config for the
 * name, not additive, and takes it away on close.
 *
 * <p>Threading: events arrive on any thread; {@link #lines()} may be read from any thread.
 */
public final class LogCapture extends AbstractAppender implements AutoCloseable {
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final String loggerName;
    private final LoggerContext context;
    // The logger config this capture created, or null when it joined one the configuration had.
    private LoggerConfig ownConfig;
    private Level previousLevel;

    private LogCapture(String loggerName, LoggerContext context) {
        super("capture-" + loggerName, null, null, true, Property.EMPTY_ARRAY);
        this.loggerName = loggerName;
        this.context = context;
    }

    public static LogCapture attach(String loggerName) {
        String binding = LoggerFactory.getILoggerFactory().getClass().getName();
        if (!binding.startsWith("org.apache.logging.slf4j")) {
            throw new IllegalStateException("expected the Log4j 2 SLF4J binding, found " + binding);
        }
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        LogCapture capture = new LogCapture(loggerName, ctx);
        capture.start();
        Configuration cfg = ctx.getConfiguration();
        LoggerConfig existing = cfg.getLoggerConfig(loggerName);
        if (existing.getName().equals(loggerName)) {
            // A logging configuration (the testkit's log4j2.xml) already declares this logger:
            // Configuration.addLogger would keep that one and drop ours silently.
            capture.ownConfig = null;
            capture.previousLevel = existing.getLevel();
            if (existing.getLevel().isMoreSpecificThan(Level.INFO)
                    && existing.getLevel() != Level.INFO) {
                existing.setLevel(Level.INFO);
            }
            existing.addAppender(capture, Level.INFO, null);
        } else {
            LoggerConfig own = new LoggerConfig(loggerName, Level.INFO, true);
            own.addAppender(capture, Level.INFO, null);
            cfg.addLogger(loggerName, own);
            capture.ownConfig = own;
        }
        ctx.updateLoggers();
        return capture;
    }

    @Override
    public void append(LogEvent event) {
        lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
    }

    /** Every captured line as {@code LEVEL message}. */
    public List<String> lines() {
        return new ArrayList<>(lines);
    }

    /** Captured lines at {@code level} that contain {@code text}. */
    public List<String> matching(Level level, String text) {
        return lines.stream()
                .filter(l -> l.startsWith(level + " ") && l.contains(text))
                .collect(Collectors.toList());
    }

    @Override
    public void close() {
        Configuration cfg = context.getConfiguration();
        if (ownConfig != null) {
            cfg.removeLogger(loggerName);
        } else {
            LoggerConfig existing = cfg.getLoggerConfig(loggerName);
            existing.removeAppender(getName());
            existing.setLevel(previousLevel);
        }
        context.updateLoggers();
        stop();
    }
}
