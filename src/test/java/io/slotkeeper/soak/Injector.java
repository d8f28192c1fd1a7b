package io.slotkeeper.soak;

import java.time.Duration;

import io.slotkeeper.gap.SlotCopies;
import io.slotkeeper.soak.FaultSchedule.Fault;
import io.slotkeeper.testbed.SlotRecipes;

import static org.awaitility.Awaitility.await;

/**
 * Plays one fault on the soak's pieces and puts things back as the fault's own end would
 * (the pod started again, the worker up, the network flowing): what slot-keeper repairs
 * is left to it. Returns when the fault is over.
 */
final class Injector {

	private final SoakWorld world;

	private volatile boolean userStopped;

	private volatile int userStopsBroken;

	private volatile int switchedUnready;

	Injector(SoakWorld world) {
		this.world = world;
	}

	/**
	 * Plays the fault.
	 * @param fault the fault
	 * @return for a lost slot, the milliseconds until it was usable again; -1 for other
	 * kinds
	 */
	long play(Fault fault) {
		Instance victim = this.world.instances.get(fault.victim());
		SoakPipeline pipeline = this.world.pipeline(fault.victim());
		switch (fault.kind()) {
			case KILL_INSTANCE -> {
				victim.kill();
				pause(fault.seconds());
				victim.start();
			}
			case FREEZE_INSTANCE -> {
				victim.freeze();
				pause(fault.seconds());
				victim.thaw();
			}
			case WORKER_RESTART -> {
				pipeline.side.connector().workerDown();
				pause(fault.seconds());
				pipeline.side.connector().workerUp();
			}
			case TASK_FAILED -> crash(pipeline);
			case PRIMARY_RESTART -> {
				this.world.server.stop();
				pause(fault.seconds());
				this.world.server.start();
			}
			case SLOT_LOST -> {
				return loseTheSlot(pipeline);
			}
			case NETWORK_STALL -> {
				this.world.network.stall();
				pause(fault.seconds());
				this.world.network.resume();
			}
			case USER_STOP -> userStop(pipeline, fault.seconds());
			case KUBERNETES_API_ERRORS -> {
				this.world.kubernetesApi().failWith(500);
				pause(fault.seconds());
				this.world.kubernetesApi().failWith(0);
			}
			case KUBERNETES_API_HANG -> {
				this.world.kubernetesApi().hang(true);
				pause(fault.seconds());
				this.world.kubernetesApi().hang(false);
			}
			case SWITCHOVER -> {
				switchOverWhenReady();
				pause(fault.seconds());
				switchOverWhenReady();
			}
		}
		return -1;
	}

	// The consumer gone (its task failed), its gap journaled from a copy of its slot
	// (when
	// the target's owner makes one in time), then WAL pushed past the limit:
	// slot-keeper's
	// poll finds the slot lost.
	private long loseTheSlot(SoakPipeline pipeline) {
		crash(pipeline);
		String copy = SlotCopies.copyOf(pipeline.slot);
		String copied = "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + copy + "'";
		try {
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> "1".equals(this.world.server.queryForString("postgres", copied)));
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			SlotRecipes.lose(this.world.server, pipeline.database, pipeline.slot,
					this.world.server::awaitStandbyCaughtUp);
			return awaitUsableAgain(pipeline);
		}
		SlotRecipes.loseBeforeItsCopy(this.world.server, pipeline.database, pipeline.slot, copy,
				this.world.server::awaitStandbyCaughtUp);
		return awaitUsableAgain(pipeline);
	}

	private long awaitUsableAgain(SoakPipeline pipeline) {
		long lost = System.nanoTime();
		await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
			String status = this.world.server.queryForString("postgres",
					"SELECT wal_status FROM pg_replication_slots" + " WHERE slot_name = '" + pipeline.slot + "'");
			return status != null && !"lost".equals(status);
		});
		return (System.nanoTime() - lost) / 1_000_000;
	}

	// A task with no walsender at that moment (reconnecting after an earlier fault)
	// cannot be failed this way: the run
	// says so and goes on, and the verdict judges the pipeline as it ends, rather than
	// the run ending without one.
	private void crash(SoakPipeline pipeline) {
		try {
			pipeline.side.connector().crash();
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			System.out.printf(
					"soak: the task of %s did not fail within 120 s of its walsender's end (state %s, slot"
							+ " active %s); going on%n",
					pipeline.target, pipeline.side.connector().state(),
					this.world.server.queryForString("postgres", "SELECT active::text FROM pg_replication_slots"
							+ " WHERE slot_name = '" + pipeline.slot + "'"));
		}
	}

	// As an operator plans one: once the standby holds every captured slot synchronized,
	// persistent and valid. A standby
	// not ready within a minute is switched to all the same, and counted: its slots are
	// then missing on the new primary.
	private void switchOverWhenReady() {
		String slots = this.world.pipelines.stream()
			.map((pipeline) -> "'" + pipeline.slot + "'")
			.collect(java.util.stream.Collectors.joining(", "));
		try {
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> Integer.toString(this.world.pipelines.size())
					.equals(this.world.server.currentStandby()
						.queryForString("postgres",
								"SELECT count(*) FROM" + " pg_replication_slots WHERE slot_name IN (" + slots
										+ ") AND synced AND NOT temporary" + " AND invalidation_reason IS NULL")));
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			this.switchedUnready++;
		}
		this.world.server.switchOver();
	}

	int switchedUnready() {
		return this.switchedUnready;
	}

	// A user's decision: nothing may start the connector while it stands.
	private void userStop(SoakPipeline pipeline, int seconds) {
		pipeline.side.userStop();
		this.userStopped = true;
		try {
			await().atMost(Duration.ofSeconds(30)).until(() -> "STOPPED".equals(pipeline.side.connector().state()));
			await().during(Duration.ofSeconds(seconds))
				.atMost(Duration.ofSeconds(seconds + 5))
				.until(() -> "STOPPED".equals(pipeline.side.connector().state()));
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			this.userStopsBroken++;
		}
		finally {
			this.userStopped = false;
			pipeline.side.userResume();
		}
	}

	boolean userStopped() {
		return this.userStopped;
	}

	int userStopsBroken() {
		return this.userStopsBroken;
	}

	// The fault's own length: how long the pod, the worker or the network stays away.
	private static void pause(int seconds) {
		try {
			Thread.sleep(seconds * 1000L);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
