/**
 * Engine runtime metadata that a Lane A Source Reader snapshots next to its connector state
 * (STIP-31 "Split assignment ownership"): which commands were applied, by which attempt lineage,
 * under which protocol and capability digest, and its versioned, checksummed binary form.
 */
package org.apache.seatunnel.engine.managed.source.checkpoint;
