/**
 * Example 3: a custom resource controller, {@code Network} ({@code samplecrd.k8s.io/v1}) reconciled into
 * an in-memory backend.
 *
 * <p>Limits: no finalizer, so a Network deleted while the controller is down leaves its backend network
 * behind until the next full resync compares the two (this example does not list the backend to find
 * orphans); no status is written.
 */
package dev.ctk.examples.network;
