package io.slotkeeper.config;

import java.util.Objects;

/**
 * A secret configuration value (a password) that never prints itself.
 * <p>
 * Records generate {@code toString} from their components, so a plain {@code String}
 * password would end up in any log line or error message that prints its record. Bound
 * from a string by Spring's conversion service through {@link #of(String)}.
 */
public final class Secret {

	private static final String MASK = "******";

	private final String value;

	private Secret(String value) {
		this.value = Objects.requireNonNull(value, "value");
	}

	/**
	 * Wraps a secret value.
	 * @param value the clear value
	 * @return the secret
	 */
	public static Secret of(String value) {
		return new Secret(value);
	}

	/**
	 * Returns the clear value; call it only where the value is handed to the driver.
	 * @return the clear value
	 */
	public String reveal() {
		return this.value;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof Secret secret && secret.value.equals(this.value);
	}

	@Override
	public int hashCode() {
		return this.value.hashCode();
	}

	@Override
	public String toString() {
		return MASK;
	}

}
