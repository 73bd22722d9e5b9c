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

import org.apache.seatunnel.api.source.SourceSplit;

final class TestSplit implements SourceSplit {
    private static final long serialVersionUID = 1L;
    final String id;
    // A read position, for tests of state that moves; not part of toString, which traces use.
    final long position;

    TestSplit(String id) {
        this(id, 0);
    }

    TestSplit(String id, long position) {
        this.id = id;
        this.position = position;
    }

    @Override
    public String splitId() {
        return id;
    }

    @Override
    public String toString() {
        return id;
    }
}
