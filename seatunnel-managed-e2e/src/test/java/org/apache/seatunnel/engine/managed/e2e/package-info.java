/**
 * End-to-end tests on real SeaTunnel Zeta 2.3.8 members embedded in the test JVM: {@link
 * org.apache.seatunnel.engine.managed.e2e.EmbeddedZeta} starts them on loopback and submits jobs
 * in-process; {@link org.apache.seatunnel.engine.managed.e2e.CollectingSink} records what a job
 * delivered so a test can check exactly-once. See {@code ENGINE-NOTES.md} next to the pom.
 */
package org.apache.seatunnel.engine.managed.e2e;
