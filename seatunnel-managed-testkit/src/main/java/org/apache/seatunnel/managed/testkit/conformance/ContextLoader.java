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

/**
 * The calling thread's context class loader around one reader call: always put back as it was (a
 * reader that leaks one must not change what the next rule sees); when checking, the call runs with
 * a loader of its own and must leave exactly that one behind.
 *
 * <p>Threading: used on one thread, within one call.
 */
final class ContextLoader {
    private final ClassLoader before;
    private final ClassLoader set;

    private ContextLoader(ClassLoader before, ClassLoader set) {
        this.before = before;
        this.set = set;
    }

    static ContextLoader enter(boolean check) {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        if (!check) {
            return new ContextLoader(before, before);
        }
        ClassLoader marker = new MarkerLoader(before);
        t.setContextClassLoader(marker);
        return new ContextLoader(before, marker);
    }

    /**
     * Puts the loader back; throws a CONTEXT_CLASS_LOADER_RESTORED violation if the call left
     * another behind while checking (then in place of anything the call threw: the rule runs calls
     * that succeed on a conforming reader).
     */
    void exit(String call) {
        Thread t = Thread.currentThread();
        ClassLoader after = t.getContextClassLoader();
        t.setContextClassLoader(before);
        if (set != before && after != set) {
            throw new ConformanceViolation(
                    ConformanceRule.CONTEXT_CLASS_LOADER_RESTORED,
                    call
                            + "() changed the calling thread's context class loader to "
                            + after
                            + " and left it so (it was "
                            + set
                            + "); set it in a try block and restore it in finally");
        }
    }
}
