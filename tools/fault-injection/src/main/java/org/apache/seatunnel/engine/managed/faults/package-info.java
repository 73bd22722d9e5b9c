/**
 * Deterministic fault injection for the Lane A runtime (STIP-31 "Validation", fault points 1–11).
 *
 * <p>{@link org.apache.seatunnel.engine.managed.faults.FaultPoint} names the points, {@link
 * org.apache.seatunnel.engine.managed.faults.FaultSchedule} says which occurrence of which point
 * fires and how (printable, parseable, generated from a seed), and {@link
 * org.apache.seatunnel.engine.managed.faults.FaultInjector} counts occurrences while a run consults
 * it. The wrappers put the injector at the runtime's own seams without changing its code: the
 * coordinator's {@code CommandDispatcher} (points 1, 2, 4), the reader mailbox's admission (point
 * 3), the connector reader (points 5, 6) and the reader loop's host (points 7, 8). Points 9, 10 and
 * 11 sit in the engine after a reader snapshot returns, so the in-process engine of the {@code
 * world} package consults the injector there.
 *
 * <p>Fault points are numbered as in {@code docs/en/architecture.md}, which lists where each is
 * injected.
 */
package org.apache.seatunnel.engine.managed.faults;
