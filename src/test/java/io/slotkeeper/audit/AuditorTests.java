package io.slotkeeper.audit;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AuditorTests {

	private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");

	private final AuditJournal journal = new AuditJournal(10);

	private final Auditor auditor = new Auditor(this.journal, Clock.fixed(NOW, ZoneOffset.UTC));

	@AfterEach
	void clearSecurityContext() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void aChangeThatRanIsRecordedWithItsSummaryAndTheCallersName() {
		SecurityContextHolder.getContext().setAuthentication(new TestingAuthenticationToken("ci-token", null));
		String result = this.auditor.run("slot.drop", "orders", "s", Map.of("force", true), () -> "dropped",
				(done) -> new Auditor.Summary("done", 204, null, Map.of("at", "0/1"), null));
		assertThat(result).isEqualTo("dropped");
		assertThat(this.journal.entries()).singleElement()
			.isEqualTo(new AuditEntry(NOW, "ci-token", List.of(), "slot.drop", "orders", "s", Map.of("force", true),
					"done", 204, null, Map.of("at", "0/1"), null));
	}

	@Test
	void aRefusalIsRecordedAsRefusedWithTheStatusTheApiAnswers() {
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> this.auditor.run("slot.recreate", "orders", "s", Map.of(), () -> {
				throw new ProblemException(ProblemKind.SLOT_NOT_INVALIDATED, "Slot 's' is reserved, not lost");
			}, (done) -> null));
		AuditEntry entry = this.journal.entries().get(0);
		assertThat(entry.actor()).as("no caller").isEqualTo("anonymous");
		assertThat(entry.outcome()).isEqualTo("refused");
		assertThat(entry.status()).isEqualTo(409);
		assertThat(entry.detail()).isEqualTo("Slot 's' is reserved, not lost");
	}

	@Test
	void aTargetThatFailedIsRecordedAsFailedNotAsRefused() {
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> this.auditor.runAs("slot-keeper", "slot.heal", "orders", "s", Map.of(), () -> {
				throw new ProblemException(ProblemKind.TARGET_UNAVAILABLE, "Target 'orders' is unavailable");
			}, (done) -> null));
		AuditEntry entry = this.journal.entries().get(0);
		assertThat(entry.actor()).isEqualTo("slot-keeper");
		assertThat(entry.outcome()).isEqualTo("failed");
		assertThat(entry.status()).isEqualTo(503);
	}

	@Test
	void anUnexpectedErrorIsRecordedAsFailedWithoutItsMessage() {
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.auditor.run("slot.drop", "orders", "s", Map.of(), () -> {
				throw new IllegalStateException("internal detail");
			}, (done) -> null));
		AuditEntry entry = this.journal.entries().get(0);
		assertThat(entry.outcome()).isEqualTo("failed");
		assertThat(entry.status()).isEqualTo(500);
		assertThat(entry.detail()).isEqualTo("IllegalStateException");
	}

	@Test
	void somethingNotDoneIsRecordedAsARefusalWith429() {
		this.auditor.recordRefusal("slot-keeper", "slot.heal", "orders", "s", "healing stopped");
		assertThat(this.journal.entries().get(0))
			.extracting(AuditEntry::outcome, AuditEntry::status, AuditEntry::detail)
			.containsExactly("refused", 429, "healing stopped");
	}

	@Test
	void parametersKeepTheirOrderAndLeaveOutThoseNotSet() {
		assertThat(Auditor.parameters("dryRun", false, "node", null, "force", true))
			.containsExactly(Map.entry("dryRun", false), Map.entry("force", true));
	}

	@Test
	void theJournalKeepsTheNewestEntriesFirstUpToItsCapacity() {
		AuditJournal small = new AuditJournal(2);
		for (int i = 1; i <= 3; i++) {
			small.record(new AuditEntry(NOW, "a", List.of(), "slot.drop", "orders", "s" + i, Map.of(), "done", 204,
					null, Map.of(), null));
		}
		assertThat(small.entries()).extracting(AuditEntry::slot).containsExactly("s3", "s2");
	}

}
