/** Engine-free tests of the managed FakeSource reader and enumerator on both lanes. */
package org.apache.seatunnel.connectors.managed.fake;
