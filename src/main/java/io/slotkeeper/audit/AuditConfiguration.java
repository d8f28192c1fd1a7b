package io.slotkeeper.audit;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the audit journal.
 */
@Configuration(proxyBeanMethods = false)
class AuditConfiguration {

	private static final int JOURNAL_CAPACITY = 1000;

	@Bean
	AuditJournal auditJournal() {
		return new AuditJournal(JOURNAL_CAPACITY);
	}

	@Bean
	Auditor auditor(AuditJournal journal, Clock clock) {
		return new Auditor(journal, clock);
	}

}
