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

package org.apache.seatunnel.engine.managed.source.fault;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the runtime asks for faults: {@link #INSTALLED} is the {@link FaultInjection} named by the
 * system property {@value #PROPERTY} when this class initialised, or null. Only a test JVM sets it
 * (this project's engine tests, through their build); a production member does not, so every call
 * site, written as {@code if (FaultSeam.INSTALLED != null)} around its fault handling, tests a
 * {@code static final} null that the JIT folds: nothing of the seam runs in production. A property
 * naming a class that cannot be loaded fails the class's initialisation, loudly, rather than run a
 * test without its faults.
 *
 * <p>Threading: immutable after class initialisation; any thread.
 */
public final class FaultSeam {
    private static final Logger LOG = LoggerFactory.getLogger(FaultSeam.class);

    /** The system property naming the injection class (a public no-argument constructor). */
    public static final String PROPERTY = "seatunnel.managed.fault-injection";

    /** How long a {@link FaultAction#DELAY} holds what it delays. */
    public static final long DELAY_MILLIS = 300;

    /** The installed injection, or null (production). */
    public static final FaultInjection INSTALLED = load();

    private FaultSeam() {}

    private static FaultInjection load() {
        String name = System.getProperty(PROPERTY);
        if (name == null || name.isEmpty()) {
            return null;
        }
        FaultInjection f;
        try {
            f =
                    Class.forName(name, true, FaultSeam.class.getClassLoader())
                            .asSubclass(FaultInjection.class)
                            .getConstructor()
                            .newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException(PROPERTY + " names no usable injection: " + name, e);
        }
        LOG.warn(
                "Fault injection {} is installed ({}): this is a test JVM, never a production member",
                name,
                PROPERTY);
        return f;
    }

    /**
     * What to do at {@code site}: {@link FaultAction#PROCEED} without an injection or when the
     * injection answers something the site does not carry out.
     */
    public static FaultAction at(FaultSite site, long jobId, int subtask, String detail) {
        FaultInjection f = INSTALLED;
        if (f == null) {
            return FaultAction.PROCEED;
        }
        FaultAction a = f.at(site, jobId, subtask, detail);
        if (a == null || !site.allows(a)) {
            return FaultAction.PROCEED;
        }
        if (a != FaultAction.PROCEED) {
            LOG.warn("Injecting {} at fault point {} ({}): {}", a, site.number(), site, detail);
        }
        return a;
    }

    /** Carries out a STALL at {@code site} through the installed injection; nothing without one. */
    public static void hold(FaultSite site) throws InterruptedException {
        FaultInjection f = INSTALLED;
        if (f != null) {
            f.hold(site);
        }
    }
}
