package org.apache.seatunnel.engine.managed.faults;

import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * Admission into one reader attempt's mailbox, as the transport adapter on the reader's member
 * calls it ({@code ReaderMailbox::offer} is one).
 *
 * <p>Threading: as the implementation says; {@code ReaderMailbox::offer} is any-thread.
 */
public interface MailboxPort {
    AdmissionAck offer(SourceCommandEnvelope env);
}
