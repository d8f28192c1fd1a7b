/**
 * API security: bearer tokens checked against configured SHA-256 hashes, viewer and operator roles, and which
 * endpoints are open.
 */
package io.slotkeeper.security;
