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

package org.apache.seatunnel.connectors.managed.kafka;

import java.io.IOException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.RecordsWithSplitIds;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.splitreader.SplitReader;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.splitreader.SplitsChange;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaPartitionSplitReader;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplit;

/**
 * The stock {@link KafkaPartitionSplitReader}, made safe against a wakeup that lands while it takes
 * new splits over: {@code wakeUp()} arms the consumer, and when the consumer is not in {@code poll}
 * at that moment the next blocking call (an end-offset lookup while adding splits) throws {@link
 * WakeupException}. The stock fetch handles it; here split changes are retried, which is safe
 * because taking splits over (assign, seek, look up end offsets) reads nothing.
 *
 * <p>Threading: as the wrapped reader; only {@link #wakeUp} may be called from other threads.
 */
final class WakeupSafeSplitReader
        implements SplitReader<ConsumerRecord<byte[], byte[]>, KafkaSourceSplit> {
    /** Each retry needs another wakeUp; far more than the fetcher ever sends at once. */
    private static final int MAX_WAKEUP_RETRIES = 100;

    private final KafkaPartitionSplitReader delegate;

    WakeupSafeSplitReader(KafkaPartitionSplitReader delegate) {
        this.delegate = delegate;
    }

    @Override
    public RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetch() throws IOException {
        return delegate.fetch();
    }

    @Override
    public void handleSplitsChanges(SplitsChange<KafkaSourceSplit> change) {
        for (int attempt = 0; ; attempt++) {
            try {
                delegate.handleSplitsChanges(change);
                return;
            } catch (WakeupException e) {
                if (attempt >= MAX_WAKEUP_RETRIES) {
                    throw e;
                }
            }
        }
    }

    @Override
    public void wakeUp() {
        delegate.wakeUp();
    }

    @Override
    public void close() throws Exception {
        delegate.close();
    }
}
