package io.slotkeeper.sessions;

import java.util.regex.Pattern;

import io.slotkeeper.config.SlotPolicyProperties;

/**
 * Quotes validated SQL identifiers. Values are always bound as parameters; identifiers
 * cannot be, so they are checked against a strict pattern first and then quoted.
 */
public final class SqlIdentifiers {

	private static final Pattern PART = Pattern.compile("^[a-z_][a-z0-9_]{0,62}$");

	private static final Pattern SLOT = Pattern.compile(SlotPolicyProperties.NAME_PATTERN);

	private SqlIdentifiers() {
	}

	/**
	 * Quotes a replication slot's name for a replication command, which takes no
	 * parameters.
	 * @param slot 1 to 63 lower-case letters, digits and underscores, as slot names are
	 * checked everywhere
	 * @return the quoted name
	 * @throws IllegalArgumentException when it is not such a name
	 */
	public static String quoteSlot(String slot) {
		if (slot == null || !SLOT.matcher(slot).matches()) {
			throw new IllegalArgumentException("not a slot name: '" + slot + "'");
		}
		return '"' + slot + '"';
	}

	/**
	 * Quotes {@code name} or {@code schema.name}; a name without a schema is in
	 * {@code public}, as slot-keeper's sessions search only {@code pg_catalog} (see
	 * {@link NodeConnector#SEARCH_PATH}).
	 * @param qualifiedName one or two lower-case identifiers separated by a dot
	 * @return the quoted form, for example {@code "public"."slotkeeper_heartbeat"}
	 * @throws IllegalArgumentException when a part is not a plain lower-case identifier
	 */
	public static String quoteQualified(String qualifiedName) {
		if (qualifiedName.split("\\.", -1).length > 2) {
			throw new IllegalArgumentException("not a table name: '" + qualifiedName + "'");
		}
		String[] name = split(qualifiedName);
		return quote(name[0]) + "." + quote(name[1]);
	}

	/**
	 * Quotes one identifier, such as a schema's name.
	 * @param name a plain lower-case identifier
	 * @return the quoted form
	 * @throws IllegalArgumentException when it is not such an identifier
	 */
	public static String quote(String name) {
		if (name == null || !PART.matcher(name).matches()) {
			throw new IllegalArgumentException("not a plain lower-case identifier: '" + name + "'");
		}
		return '"' + name + '"';
	}

	/**
	 * The schema and the name of {@code name} or {@code schema.name}.
	 * @param qualifiedName one or two identifiers separated by a dot
	 * @return the schema ({@code public} when none is named) and the name
	 */
	public static String[] split(String qualifiedName) {
		int dot = qualifiedName.indexOf('.');
		return (dot < 0) ? new String[] { "public", qualifiedName }
				: new String[] { qualifiedName.substring(0, dot), qualifiedName.substring(dot + 1) };
	}

}
