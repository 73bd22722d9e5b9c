/**
 * Lane selection of STIP-31: Lane A is the engine-managed Source runtime, Lane B the existing,
 * fully independent runtime. The chosen lane is recorded in the job plan, the deployment descriptor
 * and checkpoint runtime metadata, so restore never infers it from installed code.
 *
 * <p>"Hazard N" and "invariant N" in this package's comments are numbered as in {@code
 * docs/en/architecture.md}.
 */
package org.apache.seatunnel.engine.managed.source.lane;
