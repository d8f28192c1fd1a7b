package io.slotkeeper.debezium;

import io.debezium.pipeline.signal.SignalPayload;
import io.debezium.pipeline.signal.actions.SignalAction;
import io.debezium.pipeline.spi.Partition;

/**
 * {@value Acknowledgements#TYPE}: an acknowledgement this extension wrote streams back as
 * a signal of its own; taken and nothing done, so that the connector does not log it as
 * a signal of an unknown type.
 */
final class Acknowledged<P extends Partition> implements SignalAction<P> {

	@Override
	public boolean arrived(SignalPayload<P> signal) {
		return true;
	}

}
