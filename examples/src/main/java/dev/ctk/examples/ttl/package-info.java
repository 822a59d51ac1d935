/**
 * Example: a time-to-live controller for ConfigMaps, written to be tested under virtual time.
 *
 * <p>Limits: expiry is measured from {@code creationTimestamp} on the controller's own clock, so clock skew
 * between the API server and the controller shifts it; an annotation that is not a whole number of seconds is
 * ignored (no event, no status); deletion is unconditional (no uid precondition).
 */
package dev.ctk.examples.ttl;
