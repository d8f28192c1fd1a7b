package io.slotkeeper.support;

/**
 * What an answer or a failure says in its first line, bounded: an HTML error page or a
 * stack trace never fills a log line, an audit entry or an answer.
 */
public final class FirstLines {

	private static final int MOST = 300;

	private FirstLines() {
	}

	/**
	 * The first line of a text, stripped, cut to 300 characters.
	 * @param text the text, {@code null} for none
	 * @return the line; empty for none or a blank text
	 */
	public static String of(String text) {
		if (text == null || text.isBlank()) {
			return "";
		}
		int newline = text.indexOf('\n');
		String line = (newline < 0) ? text : text.substring(0, newline);
		return (line.length() > MOST) ? line.substring(0, MOST) + "…" : line.strip();
	}

}
