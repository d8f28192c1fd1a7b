/**
 * API conventions shared by every feature: typed exceptions and their mapping to RFC 9457 problem details.
 */
package io.slotkeeper.api;
