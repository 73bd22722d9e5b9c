package org.apache.seatunnel.engine.managed.faults;

import java.util.function.Consumer;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The network under {@link FaultInjectingDispatcher}: carries envelopes to reader mailboxes and
 * their admission answers back, and parks whatever a fault delays until the run releases it.
 *
 * <p>Threading: as the implementation says; the in-process engine's is single-threaded.
 */
public interface Transport {

    /** How one send travels. */
    enum Delivery {
        /** Delivered now; {@code onAnswer} gets the mailbox's answer now. */
        NOW,
        /** Held back until the run releases it; answered then. */
        HELD,
        /**
         * Never delivered. A transport that keeps first deliveries in order (as Zeta's command
         * sender does for one target) must not let later sends to the same target overtake it
         * until the same command is sent again.
         */
        LOST
    }

    /**
     * Sends {@code env} to the reader attempt it names.
     *
     * @param onAnswer receives the admission answer; null when nobody waits for it
     */
    void send(SourceCommandEnvelope env, Consumer<AdmissionAck> onAnswer, Delivery delivery);

    /** Runs {@code action} later, when the run releases held messages. */
    void later(Runnable action);
}
