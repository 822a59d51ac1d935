/**
 * Internals of ctk's envtest. Not an API: anything here may change in any release, and no public
 * signature of {@code dev.ctk.envtest} mentions a type from here.
 *
 * <p>For servers that ctk starts: the admin identity ({@link
 * dev.ctk.envtest.internal.AdminCredentials}) and readiness polling ({@link
 * dev.ctk.envtest.internal.Readiness}, {@link dev.ctk.envtest.internal.Poll}). For local binaries:
 * discovery ({@link dev.ctk.envtest.internal.AssetsSearch}), child processes with their crash
 * watchdog and captured logs ({@link dev.ctk.envtest.internal.ChildProcess}, {@link
 * dev.ctk.envtest.internal.LogRing}), flags, ports, the serving certificate and the work folder.
 * The {@code Container*} classes belong to container mode.
 *
 * <p>What it does not do: issue client certificates (the admin identity is a static bearer
 * token), rotate credentials, check anything about a server beyond {@code /readyz}, namespace
 * {@code default} and {@code /version}, or stop a child of a JVM killed with SIGKILL faster than
 * its watchdog's one-second poll (plus up to 3 s before KILL when the child ignores TERM).
 */
package dev.ctk.envtest.internal;
