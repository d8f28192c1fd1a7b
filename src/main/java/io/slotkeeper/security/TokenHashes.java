package io.slotkeeper.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 of API tokens, the form in which they are configured.
 */
public final class TokenHashes {

	private TokenHashes() {
	}

	/**
	 * The SHA-256 of a token.
	 * @param token the clear token
	 * @return its hash
	 */
	public static byte[] sha256(String token) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java runtime has SHA-256", ex);
		}
	}

	/**
	 * The SHA-256 of a token as 64 lower-case hexadecimal digits, as {@code sha256sum}
	 * prints it.
	 * @param token the clear token
	 * @return its hash
	 */
	public static String sha256Hex(String token) {
		return HexFormat.of().formatHex(sha256(token));
	}

}
