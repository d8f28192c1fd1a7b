package io.slotkeeper;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;

/**
 * slot-keeper: keeps PostgreSQL logical replication slots healthy for CDC pipelines.
 * <p>
 * The service has no database of its own, only targets, so Boot's DataSource
 * auto-configuration is off.
 */
@SpringBootApplication(exclude = DataSourceAutoConfiguration.class)
@ConfigurationPropertiesScan
public class SlotKeeperApplication {

	/**
	 * Starts the service.
	 * @param args command-line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(SlotKeeperApplication.class, args);
	}

}
