/**
 * The Kafka Connect REST client: restart a connector and its failed tasks, read its status.
 */
package io.slotkeeper.connect;
