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

package org.apache.seatunnel.engine.managed.source.concurrent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class OwnerThreadTest {

    @Test
    void theBoundThreadPassesAndAnotherThreadIsRefusedWithTheRoleInTheText() throws Exception {
        OwnerThread owner = new OwnerThread("reader loop");
        owner.bind();
        owner.check("apply");
        assertTrue(owner.isOwner());

        IllegalStateException other =
                CompletableFuture.supplyAsync(
                                () -> {
                                    try {
                                        owner.check("apply");
                                        return null;
                                    } catch (IllegalStateException e) {
                                        return e;
                                    }
                                })
                        .get();
        assertNotNull(other, "another thread passed the check");
        assertTrue(other.getMessage().contains("apply may only be called on the reader loop"));
    }

    @Test
    void anUnboundOwnerRefusesEveryThread() {
        OwnerThread owner = new OwnerThread("coordinator loop");
        assertThrows(IllegalStateException.class, () -> owner.check("drain"));
        owner.bind();
        owner.unbind();
        assertFalse(owner.isOwner());
        assertThrows(IllegalStateException.class, () -> owner.check("drain"));
    }
}
