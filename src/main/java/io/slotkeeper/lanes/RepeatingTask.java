package io.slotkeeper.lanes;

import java.time.Duration;

/**
 * One target's repeating work.
 */
public interface RepeatingTask {

	/**
	 * The target the task runs for: its runs' log lines carry it in the MDC.
	 * @return the target's name, {@code null} when none
	 */
	default String about() {
		return null;
	}

	/**
	 * When the first run should start.
	 * @return the delay
	 */
	Duration firstDelay();

	/**
	 * Runs once; what escapes goes to {@link #escaped(Throwable)}.
	 * @return when to run next
	 */
	Duration run();

	/**
	 * Records what escaped a run, so that even an error keeps the schedule going.
	 * @param failure what escaped
	 * @return when to run next
	 */
	Duration escaped(Throwable failure);

	/**
	 * Where the next run goes; read from the timer thread.
	 * @return the lane
	 */
	default Lane lane() {
		return Lane.CONNECT;
	}

}
