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

package org.apache.seatunnel.engine.managed.faults.world;

import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.engine.managed.faults.FaultSchedule;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.PollBudget;

/** The shape of one {@link MiniEngine} run. Immutable; built with {@link #builder()}. */
public final class WorldConfig {
    /** How the world's enumerator hands splits out. */
    public enum EnumeratorMode {
        /** One split per split request, no-more-splits once nothing is pending. */
        PULL,
        /** Every owned split when its reader registers, no-more-splits right behind. */
        EAGER,
        /** What the runtime asks for ({@code SupportSplitDemand}), no-more-splits when done. */
        DEMAND
    }

    /** How a restored coordinator's epoch is chosen. */
    public enum EpochPolicy {
        /**
         * The runtime's own policy ({@code CoordinatorEpochs}): past the source's high-water mark
         * and past the restored checkpoint's epoch, as the Zeta host picks it.
         */
        HIGH_WATER,
        /** Always 1: what a host without a policy would do; the core refuses such a restore. */
        CONSTANT
    }

    private final long seed;
    private final int parallelism;
    private final int splits;
    private final int maxRowsPerSplit;
    private final boolean checkpointsEnabled;
    private final EnumeratorMode enumeratorMode;
    private final EpochPolicy epochPolicy;
    private final int maxTrackerEntries;
    private final int drainBatch;
    private final int rowsPerTurn;
    private final MailboxLimits mailboxLimits;
    private final PollBudget pollBudget;
    private final int splitWindow;
    private final double inclusionReportLoss;
    private final FaultSchedule schedule;
    private final boolean checkOwnershipEveryStep;
    private final boolean barriersBetweenTurns;

    private WorldConfig(Builder b) {
        this.seed = b.seed;
        this.parallelism = b.parallelism;
        this.splits = b.splits;
        this.maxRowsPerSplit = b.maxRowsPerSplit;
        this.checkpointsEnabled = b.checkpointsEnabled;
        this.enumeratorMode = b.enumeratorMode;
        this.epochPolicy = b.epochPolicy;
        this.maxTrackerEntries = b.maxTrackerEntries;
        this.drainBatch = b.drainBatch;
        this.rowsPerTurn = b.rowsPerTurn;
        this.mailboxLimits = b.mailboxLimits;
        this.pollBudget = b.pollBudget;
        this.splitWindow = b.splitWindow;
        this.inclusionReportLoss = b.inclusionReportLoss;
        this.schedule = b.schedule;
        this.checkOwnershipEveryStep = b.checkOwnershipEveryStep;
        this.barriersBetweenTurns = b.barriersBetweenTurns;
    }

    public static Builder builder() {
        return new Builder();
    }

    public long seed() {
        return seed;
    }

    public int parallelism() {
        return parallelism;
    }

    public int splits() {
        return splits;
    }

    public int maxRowsPerSplit() {
        return maxRowsPerSplit;
    }

    public boolean checkpointsEnabled() {
        return checkpointsEnabled;
    }

    public EnumeratorMode enumeratorMode() {
        return enumeratorMode;
    }

    public EpochPolicy epochPolicy() {
        return epochPolicy;
    }

    public int maxTrackerEntries() {
        return maxTrackerEntries;
    }

    public int drainBatch() {
        return drainBatch;
    }

    public int rowsPerTurn() {
        return rowsPerTurn;
    }

    public MailboxLimits mailboxLimits() {
        return mailboxLimits;
    }

    /** {@code reader.split-window} the readers offer (0: none; the world's readers count). */
    public int splitWindow() {
        return splitWindow;
    }

    public PollBudget pollBudget() {
        return pollBudget;
    }

    public double inclusionReportLoss() {
        return inclusionReportLoss;
    }

    public FaultSchedule schedule() {
        return schedule;
    }

    public boolean checkOwnershipEveryStep() {
        return checkOwnershipEveryStep;
    }

    /**
     * Whether the in-flight checkpoint's barrier may also land between two turns of one reader
     * call, as the engine's barrier handoff lets it (off: only between calls, for scripted runs).
     */
    public boolean barriersBetweenTurns() {
        return barriersBetweenTurns;
    }

    @Override
    public String toString() {
        return "WorldConfig{seed="
                + seed
                + ", p="
                + parallelism
                + ", splits="
                + splits
                + "x<="
                + maxRowsPerSplit
                + ", checkpoints="
                + checkpointsEnabled
                + ", enumerator="
                + enumeratorMode
                + ", epochs="
                + epochPolicy
                + ", trackerMax="
                + maxTrackerEntries
                + ", drainBatch="
                + drainBatch
                + ", rowsPerTurn="
                + rowsPerTurn
                + ", mailbox="
                + mailboxLimits.maxCommands()
                + "+"
                + mailboxLimits.reservedCommands()
                + ", reportLoss="
                + inclusionReportLoss
                + (barriersBetweenTurns ? ", barriersBetweenTurns" : "")
                + ", faults=["
                + schedule
                + "]}";
    }

    /** Builder; not thread-safe. Defaults: a small job with checkpoints, no faults. */
    public static final class Builder {
        private long seed = 1;
        private int parallelism = 2;
        private int splits = 4;
        private int maxRowsPerSplit = 3;
        private boolean checkpointsEnabled = true;
        private EnumeratorMode enumeratorMode = EnumeratorMode.PULL;
        private EpochPolicy epochPolicy = EpochPolicy.HIGH_WATER;
        private int maxTrackerEntries = 100;
        private int drainBatch = 1024;
        private int rowsPerTurn = 1;
        private MailboxLimits mailboxLimits =
                new MailboxLimits(16, 1 << 20, 8, 64 << 10, 4096, 256, 10);
        private int splitWindow;
        private PollBudget pollBudget =
                new PollBudget(
                        64,
                        1 << 20,
                        TimeUnit.SECONDS.toNanos(1),
                        TimeUnit.SECONDS.toNanos(1),
                        TimeUnit.SECONDS.toNanos(30),
                        TimeUnit.SECONDS.toNanos(60));
        private double inclusionReportLoss;
        private FaultSchedule schedule = FaultSchedule.NONE;
        private boolean checkOwnershipEveryStep;
        private boolean barriersBetweenTurns;

        public Builder seed(long v) {
            this.seed = v;
            return this;
        }

        public Builder parallelism(int v) {
            this.parallelism = v;
            return this;
        }

        public Builder splits(int v) {
            this.splits = v;
            return this;
        }

        public Builder maxRowsPerSplit(int v) {
            this.maxRowsPerSplit = v;
            return this;
        }

        public Builder checkpointsEnabled(boolean v) {
            this.checkpointsEnabled = v;
            return this;
        }

        public Builder enumeratorMode(EnumeratorMode v) {
            this.enumeratorMode = v;
            return this;
        }

        public Builder epochPolicy(EpochPolicy v) {
            this.epochPolicy = v;
            return this;
        }

        public Builder maxTrackerEntries(int v) {
            this.maxTrackerEntries = v;
            return this;
        }

        /** Commands per coordinator drain task: small values interleave finer. */
        public Builder drainBatch(int v) {
            this.drainBatch = v;
            return this;
        }

        public Builder rowsPerTurn(int v) {
            this.rowsPerTurn = v;
            return this;
        }

        public Builder mailboxLimits(MailboxLimits v) {
            this.mailboxLimits = v;
            return this;
        }

        public Builder pollBudget(PollBudget v) {
            this.pollBudget = v;
            return this;
        }

        /** {@code reader.poll-linger} on the current poll budget (0: none). */
        public Builder pollLinger(long millis) {
            this.pollBudget = pollBudget.withLinger(TimeUnit.MILLISECONDS.toNanos(millis));
            return this;
        }

        /** {@code reader.split-window} of every reader (0, the default: none). */
        public Builder splitWindow(int v) {
            this.splitWindow = v;
            return this;
        }

        /** Share of reader inclusion reports the transport loses (not a STIP fault point). */
        public Builder inclusionReportLoss(double v) {
            this.inclusionReportLoss = v;
            return this;
        }

        public Builder schedule(FaultSchedule v) {
            this.schedule = v;
            return this;
        }

        public Builder checkOwnershipEveryStep(boolean v) {
            this.checkOwnershipEveryStep = v;
            return this;
        }

        public Builder barriersBetweenTurns(boolean v) {
            this.barriersBetweenTurns = v;
            return this;
        }

        public WorldConfig build() {
            if (parallelism < 1 || splits < 0 || maxRowsPerSplit < 1 || rowsPerTurn < 1) {
                throw new IllegalArgumentException("bad world shape");
            }
            return new WorldConfig(this);
        }
    }
}
