package io.slotkeeper.gap;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads pgoutput's protocol version 1 messages, as
 * {@code pg_logical_slot_get_binary_changes} returns them, one per row. A message it
 * cannot read (cut short, an unknown tuple kind) is refused with a clear error rather
 * than read wrong: the journal built from it would be wrong without saying so.
 */
public final class PgOutputReader {

	private PgOutputReader() {
	}

	/**
	 * Reads one message.
	 * @param data the message's bytes
	 * @return the message
	 * @throws IllegalArgumentException when the bytes are not a protocol 1 message
	 */
	public static PgOutputMessage read(byte[] data) {
		if (data == null || data.length == 0) {
			throw new IllegalArgumentException("an empty pgoutput message");
		}
		ByteBuffer in = ByteBuffer.wrap(data);
		char type = (char) in.get();
		try {
			PgOutputMessage message = switch (type) {
				case 'B' -> new PgOutputMessage.Begin(in.getLong(), skipThen(in, 8).getInt());
				case 'C' -> {
					in.get();
					yield new PgOutputMessage.Commit(in.getLong(), in.getLong());
				}
				case 'R' -> relation(in);
				case 'I' -> new PgOutputMessage.Insert(in.getInt(), newRow(in));
				case 'U' -> update(in);
				case 'D' -> {
					int relation = in.getInt();
					char kind = (char) in.get();
					if (kind != 'K' && kind != 'O') {
						throw new IllegalArgumentException("a delete with old tuple kind '" + kind + "'");
					}
					yield new PgOutputMessage.Delete(relation, kind, tuple(in));
				}
				case 'T' -> truncate(in);
				default -> new PgOutputMessage.Skipped(type);
			};
			return message;
		}
		catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException ex) {
			throw new IllegalArgumentException(
					"a pgoutput '" + type + "' message cut short (" + data.length + " bytes)", ex);
		}
	}

	private static ByteBuffer skipThen(ByteBuffer in, int bytes) {
		in.position(in.position() + bytes);
		return in;
	}

	private static PgOutputMessage.Relation relation(ByteBuffer in) {
		int oid = in.getInt();
		String schema = string(in);
		String name = string(in);
		char identity = (char) in.get();
		int count = in.getShort();
		List<PgOutputMessage.Column> columns = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			boolean key = (in.get() & 1) != 0;
			String column = string(in);
			int type = in.getInt();
			in.getInt();
			columns.add(new PgOutputMessage.Column(column, key, type));
		}
		return new PgOutputMessage.Relation(oid, schema, name, identity, List.copyOf(columns));
	}

	private static PgOutputMessage.Update update(ByteBuffer in) {
		int relation = in.getInt();
		char kind = (char) in.get();
		List<PgOutputMessage.Value> old = null;
		char oldKind = 0;
		if (kind == 'K' || kind == 'O') {
			oldKind = kind;
			old = tuple(in);
			kind = (char) in.get();
		}
		if (kind != 'N') {
			throw new IllegalArgumentException("an update with tuple kind '" + kind + "'");
		}
		return new PgOutputMessage.Update(relation, oldKind, old, tuple(in));
	}

	private static List<PgOutputMessage.Value> newRow(ByteBuffer in) {
		char kind = (char) in.get();
		if (kind != 'N') {
			throw new IllegalArgumentException("an insert with tuple kind '" + kind + "'");
		}
		return tuple(in);
	}

	private static PgOutputMessage.Truncate truncate(ByteBuffer in) {
		int count = in.getInt();
		in.get();
		List<Integer> relations = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			relations.add(in.getInt());
		}
		return new PgOutputMessage.Truncate(List.copyOf(relations));
	}

	private static List<PgOutputMessage.Value> tuple(ByteBuffer in) {
		int count = in.getShort();
		List<PgOutputMessage.Value> values = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			char kind = (char) in.get();
			values.add(switch (kind) {
				case 'n' -> PgOutputMessage.Value.NULL;
				case 'u' -> PgOutputMessage.Value.UNCHANGED;
				case 't' -> {
					byte[] text = new byte[in.getInt()];
					in.get(text);
					yield new PgOutputMessage.Value('t', new String(text, StandardCharsets.UTF_8));
				}
				default -> throw new IllegalArgumentException("a column of kind '" + kind + "'");
			});
		}
		return values;
	}

	private static String string(ByteBuffer in) {
		int start = in.position();
		int end = start;
		while (in.get(end) != 0) {
			end++;
		}
		String value = new String(in.array(), start, end - start, StandardCharsets.UTF_8);
		in.position(end + 1);
		return value;
	}

}
