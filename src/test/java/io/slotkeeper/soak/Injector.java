package io.slotkeeper.soak;

import java.time.Duration;
import java.util.List;

import io.slotkeeper.gap.SlotCopies;
import io.slotkeeper.soak.FaultSchedule.Fault;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.testbed.TcpProxy;

import static org.awaitility.Awaitility.await;

/**
 * Plays one fault on the soak's pieces and puts things back as the fault's own end would
 * (the pod started again, the worker up, the network flowing): what slot-keeper repairs
 * is left to it. An overlap plays its second fault at the moment it names, seen from the
 * harness (the slot lost, usable again, copied; the WAL limit raised), the owner it hits
 * found from the server's locks ({@link Owners}). Returns when the fault is over.
 */
final class Injector {

	private final SoakWorld world;

	private volatile int userStopsBroken;

	private volatile int switchedUnready;

	private final Owners owners;

	Injector(SoakWorld world) {
		this.world = world;
		this.owners = new Owners(world);
	}

	/**
	 * What came of playing a fault.
	 *
	 * @param lostFor for a lost slot, the milliseconds until it was usable again; -1
	 * where no slot was lost
	 * @param notPlayed why the fault was not played as drawn, {@code null} when it was
	 */
	record Outcome(long lostFor, String notPlayed) {

		static final Outcome PLAYED = new Outcome(-1, null);

		static Outcome notPlayed(String why) {
			return new Outcome(-1, why);
		}

	}

	/**
	 * Plays the fault.
	 * @param fault the fault
	 * @return what came of it
	 */
	Outcome play(Fault fault) {
		if (fault.overlap() != null) {
			return overlap(fault);
		}
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
			case TASK_FAILED -> {
				return crash(pipeline);
			}
			case PRIMARY_RESTART -> {
				this.world.server.stop();
				pause(fault.seconds());
				this.world.server.start();
			}
			case SLOT_LOST -> {
				Outcome crashed = crash(pipeline);
				return (crashed.notPlayed() != null) ? crashed : loseTheSlot(pipeline, NOTHING, NOTHING);
			}
			case NETWORK_STALL -> {
				this.world.networks.forEach(TcpProxy::stall);
				pause(fault.seconds());
				this.world.networks.forEach(TcpProxy::resume);
			}
			case USER_STOP -> {
				if (!userCanStop(pipeline)) {
					return Outcome.notPlayed(NOT_RUNNING);
				}
				userStop(pipeline, fault.seconds());
			}
			case KUBERNETES_API_ERRORS -> {
				this.world.kubernetesApi().failWith(fault.apiStatus());
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
		return Outcome.PLAYED;
	}

	private static final Runnable NOTHING = () -> {
	};

	// The second fault starts at the moment its overlap names, seen from the harness: the
	// slot lost, the slot usable again (its handover under way), the copy of a slot made
	// (its consumer away), the WAL limit raised.
	private Outcome overlap(Fault fault) {
		SoakPipeline pipeline = this.world.pipeline(fault.victim());
		int seconds = fault.seconds();
		switch (fault.overlap()) {
			case USER_STOP_DURING_LOSS -> {
				if (!userCanStop(pipeline)) {
					return Outcome.notPlayed(NOT_RUNNING);
				}
				Thread stop = background(() -> userStop(pipeline, seconds));
				if (!until(Duration.ofSeconds(30), () -> "STOPPED".equals(pipeline.side.connector().state()))) {
					join(stop);
					return Outcome.notPlayed("the user's stop did not take within 30 s");
				}
				pause(3);
				Outcome lost = loseTheSlot(pipeline, NOTHING, NOTHING);
				join(stop);
				return lost;
			}
			case OWNER_KILLED_DURING_HANDOVER -> {
				Outcome crashed = crash(pipeline);
				if (crashed.notPlayed() != null) {
					return crashed;
				}
				Instance[] owner = new Instance[1];
				Outcome lost = loseTheSlot(pipeline, NOTHING, () -> {
					owner[0] = ownerOf(pipeline);
					pipeline.side.connector().workerDown();
					if (owner[0] != null) {
						owner[0].kill();
					}
				});
				pause(seconds);
				if (owner[0] != null) {
					owner[0].start();
				}
				pipeline.side.connector().workerUp();
				return (lost.notPlayed() != null || owner[0] != null) ? lost
						: new Outcome(lost.lostFor(), "no instance owned the target");
			}
			case API_FAULT_DURING_HANDOVER -> {
				SoakPipeline managed = this.world.managedPipeline();
				Outcome crashed = crash(managed);
				if (crashed.notPlayed() != null) {
					return crashed;
				}
				long[] began = new long[1];
				Outcome lost = loseTheSlot(managed, () -> {
					began[0] = System.nanoTime();
					if (seconds % 2 == 1) {
						this.world.kubernetesApi().hang(true);
					}
					else {
						this.world.kubernetesApi().failWith(500);
					}
				}, NOTHING);
				pause((int) Math.max(0, seconds - (System.nanoTime() - began[0]) / 1_000_000_000L));
				this.world.kubernetesApi().hang(false);
				this.world.kubernetesApi().failWith(0);
				return lost;
			}
			case SWITCHOVER_WHILE_AWAY -> {
				pipeline.side.connector().workerDown();
				boolean copied = until(Duration.ofSeconds(30), () -> copyMade(pipeline));
				switchOverWhenReady();
				pause(seconds / 2);
				pipeline.side.connector().workerUp();
				pause(seconds - seconds / 2);
				switchOverWhenReady();
				return copied ? Outcome.PLAYED
						: Outcome.notPlayed("no copy of the slot within 30 s of its worker's end");
			}
			case OWNER_STALLED_DURING_RECREATE -> {
				Outcome crashed = crash(pipeline);
				if (crashed.notPlayed() != null) {
					return crashed;
				}
				Thread[] stall = new Thread[1];
				Outcome lost = loseTheSlot(pipeline, () -> {
					Instance owner = ownerOf(pipeline);
					if (owner != null) {
						TcpProxy network = this.world.networks.get(this.world.instances.indexOf(owner));
						network.stall();
						stall[0] = background(() -> {
							pause(seconds);
							network.resume();
						});
					}
				}, NOTHING);
				if (stall[0] != null) {
					join(stall[0]);
				}
				return (lost.notPlayed() != null || stall[0] != null) ? lost
						: new Outcome(lost.lostFor(), "no instance owned the target when its slot was lost");
			}
			case TASK_FAILED_DURING_RAISE -> {
				pipeline.side.connector().workerDown();
				boolean raised = until(Duration.ofSeconds(60), () -> SoakVerdict.RAISED_KEEP_SIZE
					.equals(this.world.server.queryForString("postgres", "SHOW max_slot_wal_keep_size")));
				Outcome crashed = raised ? crash(this.world.pipeline(fault.victim() + 1)) : Outcome.PLAYED;
				pause(seconds);
				pipeline.side.connector().workerUp();
				return raised ? crashed
						: Outcome.notPlayed("the WAL limit was not raised within 60 s of the worker's end");
			}
		}
		return Outcome.PLAYED;
	}

	// Ownership may be changing hands at the moment (a takeover after an earlier fault):
	// the holder of the target's owner lock within 10 s.
	private Instance ownerOf(SoakPipeline pipeline) {
		Instance[] owner = new Instance[1];
		until(Duration.ofSeconds(10), () -> (owner[0] = this.owners.of(pipeline)) != null);
		return owner[0];
	}

	private boolean copyMade(SoakPipeline pipeline) {
		return "1".equals(this.world.server.queryForString("postgres",
				"SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + SlotCopies.copyOf(pipeline.slot)
						+ "'"));
	}

	// The consumer away (its task failed, its worker gone or stopped by its user), its
	// gap journaled from a copy of its slot (when the target's owner makes one in time),
	// then WAL pushed past the limit: slot-keeper's poll finds the slot lost.
	private Outcome loseTheSlot(SoakPipeline pipeline, Runnable whenLost, Runnable whenUsableAgain) {
		// The WAL pushed past the limit loses every slot whose consumer is away: the
		// others' must stream, or the fault is not the one drawn.
		Duration within = repairAllowance();
		if (!until(within, () -> othersStreaming(pipeline))) {
			return Outcome.notPlayed("another pipeline's consumer did not stream caught up within " + within.toSeconds()
					+ " s: its slot would be lost too");
		}
		java.util.concurrent.atomic.AtomicBoolean losing = new java.util.concurrent.atomic.AtomicBoolean(true);
		Thread away = background(() -> holdAway(pipeline, losing));
		try {
			Runnable othersKept = () -> {
				this.world.server.awaitStandbyCaughtUp();
				awaitOthersAtHead(pipeline);
			};
			if (until(Duration.ofSeconds(30), () -> copyMade(pipeline))) {
				SlotRecipes.loseBeforeItsCopy(this.world.server, pipeline.database, pipeline.slot,
						SlotCopies.copyOf(pipeline.slot), othersKept);
			}
			else {
				SlotRecipes.lose(this.world.server, pipeline.database, pipeline.slot, othersKept);
			}
		}
		catch (IllegalStateException ex) {
			return Outcome.notPlayed(ex.getMessage());
		}
		finally {
			losing.set(false);
			join(away);
		}
		long lost = System.nanoTime();
		whenLost.run();
		if (!until(Duration.ofSeconds(120), () -> {
			String status = this.world.server.queryForString("postgres",
					"SELECT wal_status FROM pg_replication_slots WHERE slot_name = '" + pipeline.slot + "'");
			return status != null && !"lost".equals(status);
		})) {
			return new Outcome(Long.MAX_VALUE, null);
		}
		long usable = (System.nanoTime() - lost) / 1_000_000;
		whenUsableAgain.run();
		return new Outcome(usable, null);
	}

	// A task fails when its walsender ends: one still reconnecting after an earlier fault
	// is given the time its repair may take to stream again first. A task that never
	// streams, or does not fail, is a fault not played, which the verdict counts against
	// the run.
	private Outcome crash(SoakPipeline pipeline) {
		Duration within = repairAllowance();
		if (!until(within, () -> "true".equals(slotActive(pipeline)))) {
			return Outcome.notPlayed("the task of " + pipeline.target + " did not stream within " + within.toSeconds()
					+ " s (state " + pipeline.side.connector().state() + ")");
		}
		try {
			pipeline.side.connector().crash();
			return Outcome.PLAYED;
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			return Outcome.notPlayed(
					"the task of " + pipeline.target + " did not fail within 120 s of its walsender's end (state "
							+ pipeline.side.connector().state() + ", slot active " + slotActive(pipeline) + ")");
		}
	}

	// Streaming and caught up: a consumer that streams but has not confirmed for a while
	// (starting after a handover) retains WAL the push would pass, and its slot is lost
	// with the victim's, not journaled (its consumer was not away).
	private boolean othersStreaming(SoakPipeline pipeline) {
		return this.world.pipelines.stream()
			.filter((other) -> other != pipeline)
			.allMatch((other) -> "t".equals(this.world.server.queryForString("postgres",
					"SELECT active AND pg_current_wal_lsn() - restart_lsn < 262144 FROM pg_replication_slots"
							+ " WHERE slot_name = '" + other.slot + "'")));
	}

	// While the WAL is pushed past the limit the victim's consumer stays away: a task
	// slot-keeper restarts meanwhile (its failed-task policy, seconds after the crash)
	// would confirm the slot past the gap, its journal would end and the loss not come.
	// Each walsender it starts is ended before its first confirmation (Debezium confirms
	// at its offset flush, every second here).
	private void holdAway(SoakPipeline pipeline, java.util.concurrent.atomic.AtomicBoolean losing) {
		await().forever().ignoreExceptions().pollInterval(Duration.ofMillis(100)).until(() -> {
			this.world.server.execute("postgres", "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots"
					+ " WHERE slot_name = '" + pipeline.slot + "' AND active_pid IS NOT NULL");
			return !losing.get();
		});
	}

	// Before each checkpoint of the loss: every other pipeline's slot and its copy (a
	// gap journal begins one when that slot's loss looks near) past the WAL the
	// checkpoint removes, or the loss takes it too and the fault is not the one drawn.
	// The victim's copy is the recipe's to await; the uncaptured database's slot is
	// meant to be lost.
	private void awaitOthersAtHead(SoakPipeline pipeline) {
		String pipelines = this.world.pipelines.stream()
			.filter((other) -> other != pipeline)
			.map((other) -> "'" + other.slot + "'")
			.collect(java.util.stream.Collectors.joining(","));
		String others = this.world.server.queryForString("postgres",
				"SELECT string_agg(slot_name, ',') FROM pg_replication_slots WHERE wal_status <> 'lost' AND (slot_name"
						+ " IN (" + pipelines + ") OR (starts_with(slot_name, '" + SlotCopies.PREFIX
						+ "') AND slot_name <> '" + SlotCopies.copyOf(pipeline.slot) + "'))");
		if (others == null) {
			return;
		}
		try {
			SlotRecipes.awaitAtHead(this.world.server, pipeline.database, List.of(others.split(",")), 256 * 1024,
					Duration.ofSeconds(60));
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			throw new IllegalStateException("a slot other than " + pipeline.slot + " (of " + others
					+ ") did not move past the WAL the loss removes within 60 s: it would be lost too");
		}
	}

	/**
	 * Whether every pipeline's consumer streams: its slot active.
	 * @return whether all do
	 */
	boolean allStreaming() {
		return this.world.pipelines.stream().allMatch((pipeline) -> "true".equals(slotActive(pipeline)));
	}

	private String slotActive(SoakPipeline pipeline) {
		return this.world.server.queryForString("postgres",
				"SELECT active::text FROM pg_replication_slots WHERE slot_name = '" + pipeline.slot + "'");
	}

	private static boolean until(Duration within, java.util.concurrent.Callable<Boolean> condition) {
		try {
			await().atMost(within).pollInterval(Duration.ofMillis(200)).until(condition);
			return true;
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			return false;
		}
	}

	private static Thread background(Runnable work) {
		Thread thread = new Thread(work, "soak-overlap");
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

	private static void join(Thread thread) {
		try {
			thread.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	// As an operator plans one: once the standby holds every captured slot synchronized,
	// persistent and valid (a slot recreated by an earlier fault's repair is persistent
	// on
	// the standby only once its consumer confirmed past the standby's position: given the
	// time a repair may take). A standby not ready then is switched to all the same,
	// counted
	// and its slots printed: they are then missing on the new primary.
	private void switchOverWhenReady() {
		String slots = this.world.pipelines.stream()
			.map((pipeline) -> "'" + pipeline.slot + "'")
			.collect(java.util.stream.Collectors.joining(", "));
		try {
			await().atMost(repairAllowance())
				.pollInterval(Duration.ofMillis(500))
				.until(() -> Integer.toString(this.world.pipelines.size())
					.equals(this.world.server.currentStandby()
						.queryForString("postgres",
								"SELECT count(*) FROM" + " pg_replication_slots WHERE slot_name IN (" + slots
										+ ") AND synced AND NOT temporary" + " AND invalidation_reason IS NULL")));
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			this.switchedUnready++;
			System.out.printf(
					"soak: switching over to a standby not ready within %d s; its slots: %s; the primary's: %s%n",
					repairAllowance().toSeconds(),
					this.world.server.currentStandby()
						.queryForString("postgres",
								"SELECT string_agg(slot_name || ' synced ' || synced || ' temporary ' || temporary"
										+ " || ' invalidation ' || coalesce(invalidation_reason, '-') || ' confirmed '"
										+ " || coalesce(confirmed_flush_lsn::text, '-'), '; ') FROM pg_replication_slots"
										+ " WHERE slot_name IN (" + slots + ")"),
					this.world.server.queryForString("postgres",
							"SELECT string_agg(slot_name || ' failover ' || failover || ' active ' || active"
									+ " || ' confirmed ' || coalesce(confirmed_flush_lsn::text, '-'), '; ') FROM"
									+ " pg_replication_slots WHERE slot_name IN (" + slots + ")"));
		}
		this.world.server.switchOver();
	}

	int switchedUnready() {
		return this.switchedUnready;
	}

	private static final String NOT_RUNNING = "the connector was not running within the time an earlier fault's repair"
			+ " may take (held stopped for a handover)";

	// A user stops a running connector: one slot-keeper holds stopped for a handover
	// (seconds) looks stopped already, and a stop then is the same write as slot-keeper's
	// own, which no one can tell apart (docs/connectors.md, "A user's stop during a
	// handover").
	private boolean userCanStop(SoakPipeline pipeline) {
		return until(repairAllowance(), () -> "RUNNING".equals(pipeline.side.connector().state()));
	}

	// As long as the repair of an earlier fault may take (the longest bound of a time to
	// whole again, the Strimzi status lag included: seed 20261215's task failed 52 s
	// after
	// a primary's restart whose Strimzi task was restarted after 110 s), so that a
	// precondition leaves a fault unplayed only when a repair was slower than its bound.
	private Duration repairAllowance() {
		return Duration.ofMillis(FaultSchedule.Overlap.WHOLE_AGAIN_MILLIS
				+ this.world.pipelines.stream().mapToLong((each) -> each.side.statusLagMillis()).max().orElse(0));
	}

	// A user's decision: nothing may start the connector while it stands.
	private void userStop(SoakPipeline pipeline, int seconds) {
		pipeline.side.userStop();
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
			pipeline.side.userResume();
		}
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
