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

package org.apache.seatunnel.managed.testkit.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Exact accounting of row keys at a sink: every expected key once, nothing else; failures name the
 * missing, duplicated and unexpected keys.
 *
 * <p>Threading: stateless, any thread.
 */
public final class RowAccounting {
    /** Keys listed per category in a failure message; the counts are always complete. */
    private static final int SHOWN = 10;

    private RowAccounting() {}

    /** Key → how often it occurs, sorted by key; exactly-once means every count is 1. */
    public static Map<String, Integer> multiset(Collection<String> keys) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String k : keys) {
            counts.merge(k, 1, Integer::sum);
        }
        return counts;
    }

    /** The keys that occur more than once, with their counts. */
    public static Map<String, Integer> duplicates(Collection<String> keys) {
        Map<String, Integer> dups = new TreeMap<>();
        for (Map.Entry<String, Integer> e : multiset(keys).entrySet()) {
            if (e.getValue() > 1) {
                dups.put(e.getKey(), e.getValue());
            }
        }
        return dups;
    }

    /**
     * Asserts that {@code actual} holds every key of {@code expected} exactly once and no other
     * key.
     *
     * @throws IllegalArgumentException if {@code expected} itself holds a key twice
     * @throws AssertionError naming the missing, duplicated and unexpected keys
     */
    public static void assertExactlyOnce(Collection<String> expected, Collection<String> actual) {
        Map<String, Integer> want = multiset(expected);
        if (want.size() != expected.size()) {
            throw new IllegalArgumentException(
                    "expected keys are not unique: " + first(duplicates(expected).keySet()));
        }
        Map<String, Integer> got = multiset(actual);
        List<String> missing = new ArrayList<>();
        for (String k : want.keySet()) {
            if (!got.containsKey(k)) {
                missing.add(k);
            }
        }
        Map<String, Integer> duplicated = new TreeMap<>();
        List<String> unexpected = new ArrayList<>();
        for (Map.Entry<String, Integer> e : got.entrySet()) {
            if (!want.containsKey(e.getKey())) {
                unexpected.add(e.getKey());
            } else if (e.getValue() > 1) {
                duplicated.put(e.getKey(), e.getValue());
            }
        }
        if (missing.isEmpty() && duplicated.isEmpty() && unexpected.isEmpty()) {
            return;
        }
        throw new AssertionError(
                "not exactly once: "
                        + expected.size()
                        + " keys expected, "
                        + actual.size()
                        + " rows seen; missing "
                        + missing.size()
                        + " "
                        + first(missing)
                        + ", duplicated "
                        + duplicated.size()
                        + " "
                        + first(duplicated.entrySet())
                        + ", unexpected "
                        + unexpected.size()
                        + " "
                        + first(unexpected));
    }

    /** Asserts that no key occurs twice in {@code actual} (at most once, for open-ended runs). */
    public static void assertNoDuplicates(Collection<String> actual) {
        Map<String, Integer> dups = duplicates(actual);
        if (!dups.isEmpty()) {
            throw new AssertionError(
                    dups.size() + " keys delivered more than once: " + first(dups.entrySet()));
        }
    }

    private static String first(Collection<?> items) {
        List<Object> shown = new ArrayList<>();
        for (Object o : items) {
            if (shown.size() == SHOWN) {
                shown.add("...");
                break;
            }
            shown.add(o);
        }
        return shown.toString();
    }
}
