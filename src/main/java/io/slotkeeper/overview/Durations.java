package io.slotkeeper.overview;

/**
 * Durations in the words of the overview's findings.
 */
final class Durations {

	private Durations() {
	}

	/**
	 * A number of seconds in the largest unit that keeps it readable.
	 * @param seconds the seconds
	 * @return for example {@code 45 s}, {@code 12 min}, {@code 3 h}, {@code 2 d}
	 */
	static String words(long seconds) {
		if (seconds < 120) {
			return seconds + " s";
		}
		if (seconds < 7200) {
			return (seconds / 60) + " min";
		}
		if (seconds < 172_800) {
			return (seconds / 3600) + " h";
		}
		return (seconds / 86_400) + " d";
	}

}
