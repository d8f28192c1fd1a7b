package io.slotkeeper.connect;

/**
 * Whether slot-keeper's Debezium extension is installed where a connector runs, as far as
 * its Kafka Connect worker or Strimzi resource says.
 *
 * @param installed {@code true} or {@code false} when it could be told, {@code null} when
 * not
 * @param detail how it was told (the plugin and its version, the build's artifact), or
 * why it could not be
 */
public record ExtensionCheck(Boolean installed, String detail) {

	/**
	 * The marker class the extension's jar lists among a worker's plugins.
	 */
	public static final String MARKER = "io.slotkeeper.debezium.Installed";

	/**
	 * What the extension's artifact is called, in a Strimzi build's plugin URLs.
	 */
	public static final String ARTIFACT = "slot-keeper-debezium-extension";

	/**
	 * A check that could not tell.
	 * @param why why not
	 * @return the check
	 */
	public static ExtensionCheck unknown(String why) {
		return new ExtensionCheck(null, why);
	}

	/**
	 * Whether it is known not to be installed.
	 * @return {@code true} only when the check could tell it is not
	 */
	public boolean absent() {
		return Boolean.FALSE.equals(this.installed);
	}

}
