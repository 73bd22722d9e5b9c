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

import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * One element of a {@link ReaderMailbox}'s ring: either a {@link RemoteCommand} (a command another
 * thread or member sent as a wire envelope and the mailbox admitted) or one of the signals the
 * reader's own member posts through {@link LocalSignals} — a {@link Barrier}, a {@link
 * CheckpointNotice} or a {@link GracefulClose}. The local ones carry only what they need (a
 * checkpoint id at most), never an envelope, since they are dequeued by the same member moments
 * after they were posted and no header of theirs would ever be read. The hierarchy is closed: the
 * constructor is private, so these nested classes are all there is and {@link #kind()} names which
 * one an entry is.
 *
 * <p>Every entry also records what the mailbox needs to release it: the capacity pool it was taken
 * from and when it was admitted. An entry is built by the admitting thread just before it publishes
 * it.
 *
 * <p>Threading: immutable; safe to read from any thread once published. The mailbox's release store
 * publishes it to the consumer.
 */
public abstract class MailboxEntry {

    /** What an entry is; {@link ReaderEventLoop} and {@link CommandApplier} dispatch on it. */
    public enum Kind {
        /** A {@link RemoteCommand}. */
        REMOTE_COMMAND,
        /** A {@link Barrier}. */
        BARRIER,
        /** A {@link CheckpointNotice} of a completed checkpoint. */
        CHECKPOINT_COMPLETE,
        /** A {@link CheckpointNotice} of an aborted checkpoint. */
        CHECKPOINT_ABORTED,
        /** A {@link GracefulClose}. */
        GRACEFUL_CLOSE
    }

    /**
     * What a local signal counts against the mailbox's byte bounds: the 8 bytes of the checkpoint
     * id it carries (a graceful close counts the same), so {@code
     * reader-mailbox.reserved-control-bytes} bounds how many can wait as its command count does.
     */
    static final int LOCAL_SIGNAL_BYTES = Long.BYTES;

    private final Kind kind;
    private final boolean reserved;
    private final long admittedNanos;

    private MailboxEntry(Kind kind, boolean reserved, long admittedNanos) {
        this.kind = kind;
        this.reserved = reserved;
        this.admittedNanos = admittedNanos;
    }

    public final Kind kind() {
        return kind;
    }

    /** Whether the entry holds reserved control capacity rather than normal capacity. */
    public final boolean reserved() {
        return reserved;
    }

    /** When the mailbox admitted the entry ({@link NanoClock} time). */
    public final long admittedNanos() {
        return admittedNanos;
    }

    /**
     * The local signal of {@code kind} (anything but {@link Kind#REMOTE_COMMAND}), as the mailbox
     * admitted it.
     */
    static MailboxEntry local(Kind kind, long checkpointId, boolean reserved, long admittedNanos) {
        switch (kind) {
            case BARRIER:
                return new Barrier(checkpointId, reserved, admittedNanos);
            case CHECKPOINT_COMPLETE:
                return new CheckpointNotice(true, checkpointId, reserved, admittedNanos);
            case CHECKPOINT_ABORTED:
                return new CheckpointNotice(false, checkpointId, reserved, admittedNanos);
            case GRACEFUL_CLOSE:
                return new GracefulClose(reserved, admittedNanos);
            default:
                throw new IllegalArgumentException(kind + " is not a local signal");
        }
    }

    /** The payload bytes the entry holds of the mailbox's capacity until it is completed. */
    abstract int bytes();

    /** A command admitted from a wire envelope: what a coordinator (or a test) sent. */
    public static final class RemoteCommand extends MailboxEntry {
        private final SourceCommandEnvelope envelope;

        RemoteCommand(SourceCommandEnvelope envelope, boolean reserved, long admittedNanos) {
            super(Kind.REMOTE_COMMAND, reserved, admittedNanos);
            this.envelope = envelope;
        }

        public SourceCommandEnvelope envelope() {
            return envelope;
        }

        @Override
        int bytes() {
            return envelope.payloadLength();
        }

        @Override
        public String toString() {
            return "RemoteCommand{" + envelope + '}';
        }
    }

    /** Checkpoint barrier {@link #checkpointId}, posted by the member's barrier thread. */
    public static final class Barrier extends MailboxEntry {
        private final long checkpointId;

        Barrier(long checkpointId, boolean reserved, long admittedNanos) {
            super(Kind.BARRIER, reserved, admittedNanos);
            this.checkpointId = checkpointId;
        }

        public long checkpointId() {
            return checkpointId;
        }

        @Override
        int bytes() {
            return LOCAL_SIGNAL_BYTES;
        }

        @Override
        public String toString() {
            return "Barrier{" + checkpointId + '}';
        }
    }

    /** The engine completed or aborted checkpoint {@link #checkpointId}. */
    public static final class CheckpointNotice extends MailboxEntry {
        private final long checkpointId;

        CheckpointNotice(boolean completed, long checkpointId, boolean reserved, long admitted) {
            super(
                    completed ? Kind.CHECKPOINT_COMPLETE : Kind.CHECKPOINT_ABORTED,
                    reserved,
                    admitted);
            this.checkpointId = checkpointId;
        }

        public long checkpointId() {
            return checkpointId;
        }

        @Override
        int bytes() {
            return LOCAL_SIGNAL_BYTES;
        }

        @Override
        public String toString() {
            return "CheckpointNotice{" + kind() + ' ' + checkpointId + '}';
        }
    }

    /** The engine will call no more poll turns: the attempt closes gracefully. */
    public static final class GracefulClose extends MailboxEntry {

        GracefulClose(boolean reserved, long admittedNanos) {
            super(Kind.GRACEFUL_CLOSE, reserved, admittedNanos);
        }

        @Override
        int bytes() {
            return LOCAL_SIGNAL_BYTES;
        }

        @Override
        public String toString() {
            return "GracefulClose";
        }
    }
}
