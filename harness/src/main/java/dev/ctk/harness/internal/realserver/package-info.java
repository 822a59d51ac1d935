/**
 * The real API servers of a JVM as scopes use them: one server per configuration key (through {@code
 * SharedApiServers}), its admin client and test namespaces held while a test run is open, CRDs installed once per
 * server, and whether a mode is available (with the reason and the fix when it is not). Not API.
 *
 * <p>Limits: a server lives as long as the JVM; CRDs installed by one class stay for the next (the last version
 * installed wins); only {@code ctk.uninstall-crds=true} removes them when the last run ends.
 */
package dev.ctk.harness.internal.realserver;
