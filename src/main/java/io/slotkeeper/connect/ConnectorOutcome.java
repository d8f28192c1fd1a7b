package io.slotkeeper.connect;

/**
 * What a connector restart came to.
 *
 * @param connector the connector's name
 * @param restarted whether Kafka Connect accepted the restart (any 2xx)
 * @param status the last HTTP status, {@code null} when Kafka Connect could not be
 * reached
 * @param attempts calls made, retries of 409 (rebalance) included
 * @param detail what went wrong, {@code null} on success
 */
public record ConnectorOutcome(String connector, boolean restarted, Integer status, int attempts, String detail) {

}
