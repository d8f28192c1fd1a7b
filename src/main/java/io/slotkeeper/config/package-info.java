/**
 * Configuration records bound from {@code slotkeeper.*}, validated at start-up.
 */
package io.slotkeeper.config;
