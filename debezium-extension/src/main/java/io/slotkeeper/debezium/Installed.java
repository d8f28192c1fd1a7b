package io.slotkeeper.debezium;

import java.util.Map;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.transforms.predicates.Predicate;

/**
 * How slot-keeper tells that the extension is installed on a Kafka Connect worker: a
 * predicate that matches nothing, listed by the worker's
 * {@code GET /connector-plugins?connectorsOnly=false} like every plugin. It is never meant
 * to be configured on a connector.
 *
 * @param <R> the records it would test
 */
public final class Installed<R extends ConnectRecord<R>> implements Predicate<R>, Versioned, Configurable {

	@Override
	public ConfigDef config() {
		return new ConfigDef();
	}

	@Override
	public boolean test(R record) {
		return false;
	}

	@Override
	public void configure(Map<String, ?> configs) {
	}

	@Override
	public void close() {
	}

	@Override
	public String version() {
		String version = Installed.class.getPackage().getImplementationVersion();
		return (version != null) ? version : AppInfoParser.getVersion();
	}

}
