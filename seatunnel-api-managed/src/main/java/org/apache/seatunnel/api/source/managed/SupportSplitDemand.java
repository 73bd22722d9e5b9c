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

package org.apache.seatunnel.api.source.managed;

import org.apache.seatunnel.api.annotation.Experimental;

/**
 * Implemented by an enumerator that hands its splits out when the runtime asks, so that the
 * coordinator holds only what readers can take now instead of every split the enumerator knows (an
 * enumerator of a million splits puts a million assignments in the coordinator if it assigns them
 * all at registration, as the stock engine expects).
 *
 * <p>On Lane A the runtime calls {@link #handleSplitDemand} on the coordinator loop whenever a
 * registered reader has room for more splits than the coordinator holds for it: its mailbox has
 * free credit and the assignment tracker has room. The enumerator assigns up to {@code maxSplits}
 * splits to that subtask through its context's {@code assignSplit} (more are accepted but wait in
 * the coordinator's bounded tracker), and signals no-more-splits when it has nothing left for that
 * subtask. An answer without any assignment is a "nothing now": the runtime asks that subtask again
 * only after something changed for it (a split request, splits handed back, a new reader attempt,
 * or an assignment the enumerator made on its own, e.g. after a discovery).
 *
 * <p>On Lane B the stock engine never calls it: {@link ManagedEnumeratorContext#splitDemand()}
 * tells an enumerator which lane it runs on, so one enumerator can assign on demand on Lane A and
 * at registration on Lane B.
 *
 * <p>Threading: as every enumerator callback on Lane A, on the coordinator loop, one at a time.
 */
@Experimental
public interface SupportSplitDemand {

    /**
     * Reader subtask {@code subtaskId} can take {@code maxSplits} more splits now.
     *
     * @param maxSplits at least 1
     */
    void handleSplitDemand(int subtaskId, int maxSplits);
}
