package io.slotkeeper.config;

/**
 * What an API token may do.
 */
public enum ApiRole {

	/**
	 * May read ({@code GET}).
	 */
	VIEWER,

	/**
	 * May read and change ({@code POST}, {@code PUT}, {@code DELETE}).
	 */
	OPERATOR

}
