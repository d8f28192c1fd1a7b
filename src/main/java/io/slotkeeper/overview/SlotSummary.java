package io.slotkeeper.overview;

import java.util.List;

import io.slotkeeper.lineage.SlotLineage;
import io.slotkeeper.replication.SlotBudget;
import io.slotkeeper.watching.RetainedHistory;

/**
 * One slot of a target's primary as its last poll read it, with what slot-keeper
 * concluded.
 *
 * @param name the slot's name
 * @param slotType {@code logical} or {@code physical}
 * @param database its database, {@code null} for a physical slot
 * @param plugin its output plugin
 * @param active whether a consumer streams from it
 * @param walStatus {@code reserved}, {@code extended}, {@code unreserved} or {@code lost}
 * @param retainedWalBytes WAL it pins
 * @param safeWalSizeBytes WAL that can still be written before it is at risk,
 * {@code null} when unlimited
 * @param secondsToLoss estimated seconds until it is lost, {@code null} when not
 * shrinking
 * @param diagnosis why it is (not) moving, in words
 * @param missing whether it is configured but the primary does not have it
 * @param connector its Kafka Connect connector, {@code null} when none is configured
 * @param failoverReady whether it would survive a failover, {@code null} when unknown or
 * not applicable
 * @param failoverReason why not, or why it does not apply
 * @param etag its entity tag as polled (a live read gives the tag to send as
 * {@code If-Match})
 * @param severity how bad its state is
 * @param problems what is wrong, in words, worst first
 * @param history the WAL it retained over the last hour, {@code null} when not asked for
 * or none
 * @param budget while no consumer reads it, how long it has been gone and how long the
 * slot has left at the server's WAL rate; {@code null} otherwise
 * @param lineage which epoch of the slot this is (one more with each recreate by
 * slot-keeper), when it began and where the previous epoch's consumer was; {@code null}
 * when unknown
 * @param gapJournal its gap journal while its consumer is away (since when, from where,
 * how far read), or why it has none though it should; {@code null} when none is wanted
 * @param gapDelivery what became of the last gap's deletes, truncates and outbox events
 * signalled to slot-keeper's Debezium extension, as its acknowledgements tell;
 * {@code null} when this instance signalled none
 */
public record SlotSummary(String name, String slotType, String database, String plugin, Boolean active,
		String walStatus, Long retainedWalBytes, Long safeWalSizeBytes, Double secondsToLoss, String diagnosis,
		boolean missing, Connector connector, Boolean failoverReady, String failoverReason, String etag,
		Severity severity, List<String> problems, RetainedHistory.Series history, SlotBudget budget,
		SlotLineage lineage, String gapJournal, String gapDelivery) {

	/**
	 * A slot's connector as the last poll checked it.
	 *
	 * @param name the connector's name
	 * @param state its state ({@code RUNNING}, {@code FAILED}…), {@code null} when
	 * unknown
	 * @param running whether it and every task run
	 * @param summary its state in a few words with the first failed task's trace line, or
	 * why it is unknown
	 * @param discovered whether it was found in Kafka Connect or a Strimzi resource
	 * rather than configured
	 */
	public record Connector(String name, String state, boolean running, String summary, boolean discovered) {
	}

}
