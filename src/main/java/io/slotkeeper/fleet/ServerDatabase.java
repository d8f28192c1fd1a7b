package io.slotkeeper.fleet;

/**
 * Which database of which configured server a discovered target is.
 *
 * @param server the server
 * @param database the database's name on it
 */
public record ServerDatabase(Server server, String database) {
}
