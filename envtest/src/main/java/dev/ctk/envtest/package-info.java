/**
 * Real Kubernetes API servers for tests, without JUnit: {@link dev.ctk.envtest.LocalApiServer}
 * runs etcd and kube-apiserver from local binaries (found as {@link dev.ctk.envtest.EnvtestAssets}
 * describes), and every server kind implements {@link dev.ctk.envtest.ApiServer}.
 *
 * <pre>{@code
 * try (ApiServer server = LocalApiServer.builder().build().start();
 *      KubernetesClient client = server.newClient()) {
 *   // the same test body as in fake mode
 * }
 * }</pre>
 *
 * <p>What it does not do:
 *
 * <ul>
 *   <li>Download binaries: run {@code .ci/provision-envtest} (ctk's repository, kube-apiserver
 *       1.20.2) or {@code setup-envtest use <version>} first.
 *   <li>Run controllers: a local server is a bare kube-apiserver, so there is no garbage
 *       collection, deleted namespaces stay {@code Terminating}, no service-account tokens are
 *       minted, and admission plugin {@code ServiceAccount} is off.
 *   <li>Client certificates: the admin identity is a static bearer token in group {@code
 *       system:masters}; impersonate other users with fabric8's impersonation settings if needed.
 *   <li>Windows: local binaries start through a POSIX {@code /bin/sh} (the watchdog that stops them
 *       when the JVM dies).
 *   <li>Clean up after SIGKILL of the JVM beyond the processes: the children die within seconds,
 *       but the temporary folder {@code ctk-envtest-*} stays in {@code java.io.tmpdir}.
 *   <li>Share one server between JVMs, or reuse a server across test classes by itself (the JUnit
 *       extension does that).
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.envtest;
