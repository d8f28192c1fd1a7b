/**
 * Problems as the domain reports them: a kind (refusal or failure) and a detail; the API
 * maps them to HTTP.
 */
@ApplicationModule(allowedDependencies = {})
package io.slotkeeper.problem;

import org.springframework.modulith.ApplicationModule;
