package io.slotkeeper.support;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A stable 64-bit number for a text (the first eight bytes of its SHA-256): the same in
 * every instance and every release, for advisory lock keys and rendezvous hashing.
 */
public final class TextDigests {

	private TextDigests() {
	}

	/**
	 * The text's number.
	 * @param text the text
	 * @return the first eight bytes of its SHA-256 as a {@code long}
	 */
	public static long of(String text) {
		try {
			return ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)))
				.getLong();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java runtime has SHA-256", ex);
		}
	}

}
