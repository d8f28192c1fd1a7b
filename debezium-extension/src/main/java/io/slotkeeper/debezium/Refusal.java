package io.slotkeeper.debezium;

/**
 * Why a signal is refused whole, before anything of it is emitted: its data, or the
 * connector's settings, do not allow it.
 */
final class Refusal extends RuntimeException {

	private static final long serialVersionUID = 1L;

	Refusal(String why) {
		super(why, null, false, false);
	}

}
