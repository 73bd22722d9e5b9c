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

package org.apache.seatunnel.engine.managed.source.zeta.engine;

/**
 * Holds the binding of the running engine, chosen once by its version.
 *
 * <p>Threading: initialised once by the class loader; immutable after.
 */
final class Bindings {
    // The binding for an engine without one is never used: EngineVersion keeps every job on
    // Lane B there, and the member start logs why. Failing here would only move that error.
    static final EngineBinding RUNNING = chooseOrDefault(EngineVersion.running());

    private Bindings() {}

    static EngineBinding chooseOrDefault(String version) {
        EngineBinding b = EngineBinding.forVersion(version);
        return b != null ? b : new Zeta238Binding();
    }
}
