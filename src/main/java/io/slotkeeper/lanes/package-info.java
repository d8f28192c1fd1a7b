/**
 * Where the work that talks to servers runs: {@code WorkerLanes} (bounded quick, connect
 * and retry lanes), {@code RepeatingTasks} (one schedule per target for heartbeats and
 * polls) and {@code LaneWatch} (every round of every lane begun with its bound; one past
 * it is logged with where it waits, counted, shown in the {@code lanes} health and
 * recovered as its lane allows).
 */
@ApplicationModule(allowedDependencies = { "support" })
package io.slotkeeper.lanes;

import org.springframework.modulith.ApplicationModule;
