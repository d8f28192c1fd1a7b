package io.slotkeeper.audit;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The audit journal.
 */
@RestController
@Tag(name = "audit", description = "Changes asked through the API")
class AuditController {

	private final AuditJournal journal;

	AuditController(AuditJournal journal) {
		this.journal = journal;
	}

	@GetMapping("/api/v1/audit")
	@Operation(summary = "Latest changes asked through the API, newest first",
			description = "Every mutating call, dry runs and refusals included. The journal is kept in memory and "
					+ "bounded; the log line of each entry (logger io.slotkeeper.audit) is the durable record.")
	List<AuditEntry> entries() {
		return this.journal.entries();
	}

}
