/**
 * A managed FakeSource: a deterministic generator connector that runs on both lanes of STIP-31.
 *
 * <p>Lane B (the stock engine path) calls {@link
 * org.apache.seatunnel.connectors.managed.fake.ManagedFakeReader#pollNext}, which behaves like
 * today's SeaTunnel readers, including the slow-data wait while holding the checkpoint lock that
 * apache/seatunnel#5694 describes. Lane A calls {@link
 * org.apache.seatunnel.connectors.managed.fake.ManagedFakeReader#pollNextManaged}, which honours
 * the poll budget and deadline and waits only on a signal that {@code wakeup()} ends.
 *
 * <p>Every row carries its split number and sequence number (and a payload {@code
 * "fake-<n>:<seq>"}) so a test sink can check exactly-once delivery as a multiset of (split, seq).
 */
package org.apache.seatunnel.connectors.managed.fake;
