package org.apache.seatunnel.engine.managed.faults;

/** What an injected fault does at its point; each {@link FaultPoint} allows a subset. */
public enum FaultAction {
    /** The message or callback never arrives (the sender sees a transport failure if it waits). */
    LOSE,
    /** The message arrives twice (at-least-once transport); the second copy's answer is dropped. */
    DUPLICATE,
    /** The message or callback is held back and delivered later, in an order the run chooses. */
    DELAY,
    /** The reader mailbox answers RETRY_LATER without admitting (capacity exhausted). */
    RETRY_LATER,
    /** The task (or the coordinator) fails at this point; the job restores. */
    CRASH,
    /** The checkpoint can never complete, but the task keeps running (the checkpoint times out). */
    STALL
}
