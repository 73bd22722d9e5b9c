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
import org.apache.seatunnel.api.common.metrics.Counter;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.table.type.SeaTunnelRow;
import org.apache.seatunnel.connectors.seatunnel.common.source.reader.RecordEmitter;
import org.apache.seatunnel.connectors.seatunnel.kafka.config.MessageFormatErrorHandleWay;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaRecordEmitter;
import org.apache.seatunnel.connectors.seatunnel.kafka.source.KafkaSourceSplitState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stock {@link KafkaRecordEmitter} (deserialization and the split position moving to {@code
 * offset + 1}) with {@code format_error_handle_way = skip} doing what its documentation says: a
 * record its format reports as undeserializable ({@link IOException}) is counted, logged by
 * partition and offset only (never its payload) and passed over. The stock 2.3.8 emitter logs the
 * payload and fails anyway; with {@code fail} (the default) both fail the same way.
 *
 * <p>Threading: the reader loop (Lane A) or the task thread under the checkpoint lock (Lane B).
 */
final class SkippingRecordEmitter
        implements RecordEmitter<
                ConsumerRecord<byte[], byte[]>, SeaTunnelRow, KafkaSourceSplitState> {
    private static final Logger LOG = LoggerFactory.getLogger(SkippingRecordEmitter.class);

    private final KafkaRecordEmitter delegate;
    private final boolean skip;
    private final Counter skipped;

    SkippingRecordEmitter(
            KafkaRecordEmitter delegate, MessageFormatErrorHandleWay way, Counter skipped) {
        this.delegate = delegate;
        this.skip = way == MessageFormatErrorHandleWay.SKIP;
        this.skipped = skipped;
    }

    @Override
    public void emitRecord(
            ConsumerRecord<byte[], byte[]> record,
            Collector<SeaTunnelRow> output,
            KafkaSourceSplitState state)
            throws Exception {
        try {
            delegate.emitRecord(record, output, state);
        } catch (IOException e) {
            if (!skip) {
                throw e;
            }
            skipped.inc();
            LOG.warn(
                    "Skipped an undeserializable record at offset {} of partition {}"
                            + " (format_error_handle_way = skip): {}",
                    record.offset(),
                    record.partition(),
                    e.getClass().getName());
            state.setCurrentOffset(record.offset() + 1);
        }
    }
}
