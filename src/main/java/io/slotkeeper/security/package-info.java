/**
 * API security: bearer tokens checked against configured SHA-256 hashes, viewer and
 * operator roles, and which endpoints are open.
 */
@ApplicationModule(allowedDependencies = { "audit", "config", "kubernetes", "support" })
package io.slotkeeper.security;

import org.springframework.modulith.ApplicationModule;
