package org.apache.seatunnel.engine.managed.faults.world;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Threading: confined to the run's thread. Tasks run only when the run says so, in submission
 * order, on the run's thread — the coordinator loop's drains become explicit steps.
 */
public final class ManualExecutor implements Executor {
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    @Override
    public void execute(Runnable command) {
        tasks.addLast(command);
    }

    public int pending() {
        return tasks.size();
    }

    public boolean runOne() {
        Runnable r = tasks.pollFirst();
        if (r == null) {
            return false;
        }
        r.run();
        return true;
    }

    /** Runs until idle; a loop that never becomes idle is a bug, reported after a bound. */
    public int runAll() {
        int n = 0;
        while (runOne()) {
            if (++n > 1_000_000) {
                throw new IllegalStateException("executor never became idle");
            }
        }
        return n;
    }
}
