/**
 * End-to-end tests on real SeaTunnel Zeta 2.3.8 members embedded in the test JVM: the testkit's
 * {@link org.apache.seatunnel.managed.testkit.engine.EmbeddedZeta} starts them on loopback and
 * submits jobs in-process; its collecting sink, named {@code ManagedCollect} here ({@link
 * org.apache.seatunnel.engine.managed.e2e.ManagedCollectSinkFactory}), records what a job delivered
 * so a test can check exactly-once. See {@code ENGINE-NOTES.md} next to the pom.
 */
package org.apache.seatunnel.engine.managed.e2e;
