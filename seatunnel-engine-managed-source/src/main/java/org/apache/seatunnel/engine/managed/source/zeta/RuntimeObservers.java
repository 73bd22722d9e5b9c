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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands host events to the {@link ManagedRuntimeObserver}s found on the class path (none on a
 * production member, where each call costs one emptiness check).
 *
 * <p>Threading: any thread; the list is immutable after class initialization.
 */
final class RuntimeObservers {
    private static final Logger LOG = LoggerFactory.getLogger(RuntimeObservers.class);
    private static final List<ManagedRuntimeObserver> OBSERVERS = load();

    private RuntimeObservers() {}

    private static List<ManagedRuntimeObserver> load() {
        List<ManagedRuntimeObserver> found = new ArrayList<>();
        for (ManagedRuntimeObserver o :
                ServiceLoader.load(
                        ManagedRuntimeObserver.class,
                        ManagedRuntimeObserver.class.getClassLoader())) {
            found.add(o);
        }
        if (!found.isEmpty()) {
            LOG.info("Lane A runtime observers: {}", found);
        }
        return Collections.unmodifiableList(found);
    }

    static void readerOpened(ReaderMailbox mailbox, ReaderLoopMetrics metrics) {
        if (!OBSERVERS.isEmpty()) {
            tell("reader open", o -> o.readerOpened(mailbox, metrics));
        }
    }

    static void barrierTaken(long waitNanos) {
        if (!OBSERVERS.isEmpty()) {
            tell("barrier", o -> o.barrierTaken(waitNanos));
        }
    }

    static void readerClosed(ReaderMailbox mailbox, ReaderLoopMetrics metrics) {
        if (!OBSERVERS.isEmpty()) {
            tell("reader close", o -> o.readerClosed(mailbox, metrics));
        }
    }

    static void restoreRefused(String reason) {
        if (!OBSERVERS.isEmpty()) {
            tell("refused restore", o -> o.restoreRefused(reason));
        }
    }

    static void coordinatorOpened(long jobId, long sourceRuntimeId, long epoch, boolean restored) {
        if (!OBSERVERS.isEmpty()) {
            tell(
                    "coordinator open",
                    o -> o.coordinatorOpened(jobId, sourceRuntimeId, epoch, restored));
        }
    }

    // The emptiness checks above keep production members (no observer) free of the lambda.
    private static void tell(String event, Consumer<ManagedRuntimeObserver> call) {
        for (ManagedRuntimeObserver o : OBSERVERS) {
            try {
                call.accept(o);
            } catch (RuntimeException e) {
                LOG.warn("Runtime observer {} failed on {}", o, event, e);
            }
        }
    }
}
